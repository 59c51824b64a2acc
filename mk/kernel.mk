# Kernels and QEMU guests (issue 3).  `make kernel KERNEL=X` resolves X
# through kernels/ (fetching the image into kernels/cache/ when needed) and
# prints the image path; `make initramfs` builds the guest's initramfs alone
# (make bench builds its own: scripts/bench.sh).

.PHONY: kernel initramfs

# kernel-resolve.sh reads the catalog and the architecture table through
# build/plan: build it first, as make bench does (a fresh clone had none:
# "no build/plan", then an empty command run).
kernel: config.mk
	@$(MAKE) -s --no-print-directory $(B)/plan
	@out=$$(scripts/kernel-resolve.sh --build "$${KERNEL:-host}") && eval "$$out" && \
	if [ -n "$$K_IMAGE" ]; then echo "$$K_IMAGE"; \
	else echo "$${KERNEL:-host}: $$K_RELEASE (no image file to boot; KERNEL=host runs on the machine itself)"; fi

initramfs: $(B)/guest/initramfs.cpio.gz

$(B)/guest/initramfs.cpio.gz: $(B)/bufbench-static $(B)/repro-min-static $(B)/costbench-static $(B)/runner-static guest/init scripts/initramfs.sh
	scripts/initramfs.sh $@
