(function () {
  "use strict";
  // Charts: each spec drawn into its div (SVG); the count drawn is left on <body> for the tests.
  var drawn = 0, failed = [];
  var specs = JSON.parse(document.getElementById("chart-specs").textContent || "{}");
  Object.keys(specs).forEach(function (id) {
    var el = document.getElementById(id);
    if (!el || typeof Plotly === "undefined") { failed.push(id); return; }
    Plotly.newPlot(el, specs[id].data, specs[id].layout, {displayModeBar: false, responsive: true})
      .then(function () { drawn += 1; document.body.dataset.chartsDrawn = String(drawn); },
            function (err) { failed.push(id); console.error("chart " + id + ": " + err); });
  });
  document.body.dataset.charts = String(Object.keys(specs).length);

  // The flagged hands: filters by code, status, source, variant; sorting by any column.
  var table = document.getElementById("flagged");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filters = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));
  filters.forEach(function (sel) {
    var key = sel.dataset.filter, seen = {};
    rows.forEach(function (r) {
      (r.dataset[key] || "").split(" ").forEach(function (v) { if (v) { seen[v] = true; } });
    });
    Object.keys(seen).sort().forEach(function (v) {
      var o = document.createElement("option"); o.value = v; o.textContent = v; sel.appendChild(o);
    });
    sel.addEventListener("change", apply);
  });
  function apply() {
    var shown = 0;
    rows.forEach(function (r) {
      var ok = filters.every(function (sel) {
        return !sel.value || (" " + (r.dataset[sel.dataset.filter] || "") + " ").indexOf(" " + sel.value + " ") >= 0;
      });
      r.hidden = !ok; if (ok) { shown += 1; }
    });
    document.getElementById("flagged-count").textContent = String(shown);
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.addEventListener("click", function () {
      var desc = th.getAttribute("aria-sort") === "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", desc ? "descending" : "ascending");
      var numeric = th.classList.contains("num");
      rows.sort(function (a, b) {
        var x = a.cells[col].dataset.sort || a.cells[col].textContent, y = b.cells[col].dataset.sort || b.cells[col].textContent;
        var c = numeric ? (Number(x) - Number(y)) : x.localeCompare(y);
        return desc ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
}());
