// Filters by rule and by kernel name: rows, bars and places whose
// data-rules do not hold the chosen rule, or whose data-kernel does not
// contain the typed text, are hidden. The filters live in the address's
// fragment (#rule=shared-bank-conflict&kernel=gemm), so a filtered view
// can be linked to.
(function () {
  "use strict";
  const rule = document.getElementById("rule-filter");
  const kernel = document.getElementById("kernel-filter");
  const count = document.getElementById("shown-count");
  const filtered = document.querySelectorAll("[data-rules]");
  const rows = document.querySelectorAll("#groups tbody tr");

  function apply() {
    const chosen = rule.value;
    const text = kernel.value.trim().toLowerCase();
    filtered.forEach(function (element) {
      const rules = element.dataset.rules.split(" ");
      const name = (element.dataset.kernel || "").toLowerCase();
      const ruleOk = chosen === "" || rules.indexOf(chosen) >= 0;
      const kernelOk = text === "" || !element.dataset.kernel || name.indexOf(text) >= 0;
      element.hidden = !(ruleOk && kernelOk);
    });
    let shown = 0;
    rows.forEach(function (row) { if (!row.hidden) { shown += 1; } });
    count.textContent = shown + " of " + rows.length + " places";
  }

  function remember() {
    const params = new URLSearchParams();
    if (rule.value !== "") { params.set("rule", rule.value); }
    if (kernel.value.trim() !== "") { params.set("kernel", kernel.value.trim()); }
    const fragment = params.toString();
    history.replaceState(null, "", fragment === "" ? location.pathname : "#" + fragment);
  }

  const initial = new URLSearchParams(location.hash.slice(1));
  if (initial.has("rule")) {
    const wanted = initial.get("rule");
    if (Array.prototype.some.call(rule.options, function (o) { return o.value === wanted; })) {
      rule.value = wanted;
    }
  }
  if (initial.has("kernel")) { kernel.value = initial.get("kernel"); }
  rule.addEventListener("change", function () { apply(); remember(); });
  kernel.addEventListener("input", function () { apply(); remember(); });
  apply();
  document.body.dataset.ready = "true";
})();
