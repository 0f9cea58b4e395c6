/* The fixture index's filters: each select keeps the rows whose data-NAME holds its value; the choice lives in the address (#game=...&outcome=...). */
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.fixture-index tbody tr"));
  var shown = document.getElementById("shown");
  var selects = Array.prototype.slice.call(form.querySelectorAll("select"));

  function apply() {
    var wanted = selects.filter(function (s) { return s.value; });
    var count = 0;
    rows.forEach(function (row) {
      var keep = wanted.every(function (s) { return (row.dataset[s.name] || "").split(" ").indexOf(s.value) >= 0; });
      row.hidden = !keep;
      if (keep) count += 1;
    });
    shown.textContent = count + " of " + rows.length + " fixtures" + (wanted.length ? " match" : "") + ".";
    var hash = wanted.map(function (s) { return s.name + "=" + encodeURIComponent(s.value); }).join("&");
    // A plain #fixture-id (a link to one row) is left alone.
    if (hash || location.hash.indexOf("=") >= 0) history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }

  function fromAddress() {
    var given = new URLSearchParams(location.hash.indexOf("=") >= 0 ? location.hash.slice(1) : "");
    selects.forEach(function (s) { s.value = given.get(s.name) || ""; if (s.selectedIndex < 0) s.value = ""; });
  }

  form.hidden = false;
  form.addEventListener("change", apply);
  form.addEventListener("reset", function () { setTimeout(apply, 0); });
  fromAddress();
  apply();
})();
