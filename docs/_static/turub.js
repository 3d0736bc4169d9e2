/* One control for the sources' words beside every clause (issue #21).
   A button at the top of each page that holds clauses unfolds (or folds) the sources'
   words of every clause at once; the choice is remembered (localStorage) and can be given
   in the address: ?sources=open or ?sources=folded. */
(function () {
  const KEY = "turub-sources";
  function boxes() { return document.querySelectorAll("details.turub-sources"); }
  function apply(open) {
    boxes().forEach(function (d) { d.open = open; });
    document.documentElement.classList.toggle("turub-sources-open", open);
    const button = document.getElementById("turub-sources-toggle");
    if (button) {
      button.textContent = open ? "Fold the sources' words" : "Show the sources' words beside every clause";
      button.setAttribute("aria-pressed", String(open));
    }
  }
  function start() {
    if (!boxes().length) return;
    const asked = new URLSearchParams(location.search).get("sources");
    let open = asked ? asked === "open" : false;
    if (!asked) { try { open = localStorage.getItem(KEY) === "open"; } catch (e) {} }
    const button = document.createElement("button");
    button.id = "turub-sources-toggle";
    button.type = "button";
    button.className = "turub-sources-toggle";
    button.addEventListener("click", function () {
      const now = button.getAttribute("aria-pressed") !== "true";
      try { localStorage.setItem(KEY, now ? "open" : "folded"); } catch (e) {}
      apply(now);
    });
    const article = document.querySelector("article") || document.body;
    const heading = article.querySelector("h1");
    (heading || article.firstChild).after(button);
    apply(open);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

/* A search for a clause ID lands on the clause (or on its tombstone): the search page
   looks the query up in the address book (_static/turub-clauses.js, written by the build)
   before searching the text. */
(function () {
  const book = window.TURUB_CLAUSES || {};
  const query = (new URLSearchParams(location.search).get("q") || "").trim().toLowerCase();
  if (!query || !/\/search\.html$/.test(location.pathname) || !book.hasOwnProperty(query)) return;
  const root = document.documentElement.dataset.content_root
    || (document.getElementById("documentation_options") || {}).dataset?.url_root || "";
  location.replace(new URL(book[query], new URL(root || "./", location.href)).href);
})();
