/* The book's search: MiniSearch over window.CARDVERSE_SEARCH (search-data.js), as you type; works from file://. */
(function () {
  "use strict";
  var SUITS = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };
  var CARD = /^(10|[2-9tjqka])([shdc♠♥♦♣])$/;
  // Words too common to tell pages apart, dropped from the index and from queries alike.
  var COMMON = {};
  ("a an and are as at be by can do does for from has have how if in into is it its may must no not of on or " +
   "so than that the their them then there this to was what when where which who will with").split(" ")
    .forEach(function (w) { COMMON[w] = true; });
  var KINDS = { clause: "clause", fixture: "fixture", reason: "reason code", option: "option", rules: "rule version" };

  // A card is one term however it is written: Q♥, q♥ and QH are all "qh"; 10♦ and TD are "td".
  function term(word) {
    var lower = word.toLowerCase();
    var card = CARD.exec(lower);
    if (!card) return COMMON[lower] ? null : lower;
    return (card[1] === "10" ? "t" : card[1]) + (SUITS[card[2]] || card[2]);
  }

  function makeIndex(docs) {
    var index = new window.MiniSearch({
      fields: ["title", "ids", "text", "cards"],
      storeFields: ["kind", "title", "url", "game", "text"],
      processTerm: term
    });
    index.addAll(docs);
    return index;
  }

  // Pages holding every word; when none does, those holding some, the most first.
  function search(index, query) {
    var every = index.search(query, options("AND"));
    var found = every.length ? every : index.search(query, options("OR"));
    return { results: ranked(found, query), every: every.length > 0 };
  }

  // The page the query names exactly (an id, a reason code) first; then the clauses and fixtures whose
  // title or id holds the words, then the other pages whose title does; then the rest, each by score.
  function tier(result, query) {
    if (result.title.toLowerCase() === query.toLowerCase()) return 0;
    var named = Object.keys(result.match).some(function (t) {
      return result.match[t].indexOf("title") >= 0 || result.match[t].indexOf("ids") >= 0;
    });
    if (!named) return 3;
    return result.kind === "clause" || result.kind === "fixture" ? 1 : 2;
  }

  function ranked(results, query) {
    var tiers = results.map(function (r, i) { return [tier(r, query.trim()), i, r]; });
    tiers.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    return tiers.map(function (t) { return t[2]; });
  }

  function options(combineWith) {
    return {
      boost: { title: 3, ids: 3, cards: 2 },
      combineWith: combineWith,
      // Whole ids and card names match as typed; longer words also by their start and, past six letters, near misses.
      prefix: function (t) { return t.length > 2 && !CARD.test(t); },
      fuzzy: function (t) { return t.length > 6 ? 0.15 : false; }
    };
  }

  function show(list, status, found, query, took) {
    var results = found.results;
    list.textContent = "";
    status.textContent = query ? results.length + " result" + (results.length === 1 ? "" : "s") + " for “" + query + "”"
      + (found.every || !results.length ? "" : ", none holding every word: the pages holding the most come first")
      + " (" + took + " ms)" : "Type a word, an id, a reason code or a card (Q♥ or QH).";
    results.slice(0, 500).forEach(function (r) {
      var item = document.createElement("li");
      item.className = "hit hit-" + r.kind;
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = KINDS[r.kind] || r.kind;
      var link = document.createElement("a");
      link.href = r.url;
      link.textContent = r.title;
      var where = document.createElement("span");
      where.className = "game";
      where.textContent = r.game;
      var text = document.createElement("p");
      text.textContent = r.text.length > 180 ? r.text.slice(0, 179) + "…" : r.text;
      item.append(kind, " ", link, " ", where, text);
      list.append(item);
    });
  }

  function start() {
    var box = document.getElementById("q");
    var list = document.getElementById("results");
    var status = document.getElementById("status");
    if (!box || !list || !window.MiniSearch || !window.CARDVERSE_SEARCH) return;
    var index = makeIndex(window.CARDVERSE_SEARCH);
    document.documentElement.classList.add("search-ready");
    function run(push) {
      var query = box.value.trim();
      var t0 = performance.now();
      var found = query ? search(index, query) : { results: [], every: true };
      show(list, status, found, query, Math.round(performance.now() - t0));
      if (push) history.replaceState(null, "", query ? "?q=" + encodeURIComponent(query) : location.pathname);
    }
    box.value = new URLSearchParams(location.search).get("q") || box.value;
    box.addEventListener("input", function () { run(true); });
    run(false);
    // Milliseconds from the page's start to its first results shown (index built): what a reader waits.
    document.documentElement.dataset.readyMs = String(Math.round(performance.now()));
  }

  window.CardverseSearch = { term: term };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
