#include "pgsample_pages.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pages_parse_smaps(FILE *f, struct shm_mapping *out)
{
	char line[512];
	int in_shared = 0, found = 0;
	struct shm_mapping cur = { 0 };

	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &name_at) == 3) {
			/* A new mapping header: settle the previous one. */
			if (in_shared && cur.size_kb > out->size_kb) {
				*out = cur;
				found = 1;
			}
			in_shared = strlen(perms) == 4 && perms[3] == 's';
			memset(&cur, 0, sizeof(cur));
			if (name_at > 0) {
				snprintf(cur.name, sizeof(cur.name), "%s", line + name_at);
				cur.name[strcspn(cur.name, "\n")] = '\0';
			}
			continue;
		}
		if (!in_shared)
			continue;
		if (strncmp(line, "Size:", 5) == 0)
			cur.size_kb = strtoull(line + 5, NULL, 10);
		else if (strncmp(line, "KernelPageSize:", 15) == 0)
			cur.kernel_page_kb = strtol(line + 15, NULL, 10);
		else if (strncmp(line, "ShmemPmdMapped:", 15) == 0)
			cur.pmd_kb = strtoull(line + 15, NULL, 10);
	}
	if (in_shared && cur.size_kb > out->size_kb) {
		*out = cur;
		found = 1;
	}
	return found && out->kernel_page_kb > 0 ? 0 : -1;
}

int pages_parse_meminfo(FILE *f, long *hp_used, long *hp_size_kb)
{
	char line[256];
	long total = -1, freep = -1, rsvd = -1, size = -1;

	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "HugePages_Total: %ld", &total);
		sscanf(line, "HugePages_Free: %ld", &freep);
		sscanf(line, "HugePages_Rsvd: %ld", &rsvd);
		sscanf(line, "Hugepagesize: %ld", &size);
	}
	if (total < 0 || freep < 0 || rsvd < 0 || size < 0)
		return -1;
	*hp_used = total - freep + rsvd;
	*hp_size_kb = size;
	return 0;
}

pid_t pages_postmaster_pid(const char *pgdata)
{
	char path[4096];
	long pid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/postmaster.pid", pgdata);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = -1;
	fclose(f);
	return (pid_t)pid;
}

long pages_detect(pid_t postmaster, char *source, size_t srclen)
{
	char path[64];
	FILE *f;
	long used, hpsize;

	if (postmaster > 0) {
		snprintf(path, sizeof(path), "/proc/%ld/smaps", (long)postmaster);
		f = fopen(path, "r");
		if (f) {
			struct shm_mapping m;
			int rc = pages_parse_smaps(f, &m);
			fclose(f);
			if (rc == 0) {
				snprintf(source, srclen, "smaps KernelPageSize of %s (%llu kB%s)",
					 m.name[0] ? m.name : "shared mapping", m.size_kb,
					 m.pmd_kb ? ", partly shmem THP" : "");
				return m.kernel_page_kb;
			}
		}
	}
	f = fopen("/proc/meminfo", "r");
	if (f) {
		int rc = pages_parse_meminfo(f, &used, &hpsize);
		fclose(f);
		if (rc == 0) {
			snprintf(source, srclen, "hugetlb counters (%ld in use or reserved; smaps unreadable)",
				 used);
			return used > 0 ? hpsize : sysconf(_SC_PAGESIZE) / 1024;
		}
	}
	snprintf(source, srclen, "unknown: neither smaps nor meminfo readable");
	return -1;
}
