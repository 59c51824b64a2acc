// Run by tests/e2e/report_browser.sh inside headless Chromium: measures
// every <text> of every chart with getBBox and reports, in the DOM that
// --dump-dom prints, each one that leaves its chart's canvas, and every
// script error or image (a linked SVG) that failed to load.
(function () {
  var bad = [], texts = 0, errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  function done() {
    document.querySelectorAll('svg').forEach(function (svg) {
      if (svg.parentElement.closest('svg')) return;
      var vb = svg.viewBox.baseVal, W = vb.width, H = vb.height;
      svg.querySelectorAll('text').forEach(function (t) {
        texts++;
        var b = t.getBBox();
        if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > W + 0.5 || b.y + b.height > H + 0.5)
          bad.push('"' + t.textContent + '" at ' + [b.x, b.y, b.width, b.height].map(Math.round) +
                   ' outside ' + W + 'x' + H);
      });
    });
    document.querySelectorAll('img').forEach(function (i) {
      if (!i.complete || !i.naturalWidth) errors.push('did not load: ' + i.getAttribute('src'));
    });
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      bad.push('page wider than the window: ' + document.documentElement.scrollWidth);
    var out = document.createElement('pre');
    out.id = 'browser-check';
    out.textContent = 'TEXTS ' + texts + '\n' + bad.map(function (s) { return 'OVERFLOW ' + s; }).join('\n') +
                      '\n' + errors.map(function (s) { return 'ERROR ' + s; }).join('\n') + '\nEND';
    document.body.appendChild(out);
  }
  window.addEventListener('load', done);
})();
