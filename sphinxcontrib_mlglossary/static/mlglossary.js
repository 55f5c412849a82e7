/* sphinxcontrib-mlglossary: a term's card on hover, focus or tap. */
(() => {
  "use strict";
  const SHOW = 150, HIDE = 200, GAP = 6, EDGE = 8;
  const cardOf = new Map(); // link -> card
  let open = null;     // {link, card} on screen
  let pinned = false;  // opened by a tap: stays until Escape, a tap outside or a second tap
  let timer = 0;       // the one pending show or hide
  let pointer = "mouse", clickOnly = false;

  const later = (fn, ms) => { clearTimeout(timer); timer = setTimeout(fn, ms); };

  function place(link, card) {
    const rects = link.getClientRects(), root = document.documentElement;
    if (!rects.length) return;
    card.style.left = card.style.top = "0px"; // measure at full width
    card.style.maxHeight = "";
    const w = card.offsetWidth, vh = root.clientHeight;
    let h = card.offsetHeight;
    // below the last line; above the first if only that fits (or has more room);
    // taller than its side's room, it scrolls instead of leaving the window
    let r = rects[rects.length - 1], top = r.bottom + GAP;
    const below = vh - EDGE - top, over = rects[0].top - GAP - EDGE;
    const above = h > below && over > below;
    if (above) r = rects[0];
    const fit = Math.max(above ? over : below, 0);
    if (h > fit) { card.style.maxHeight = fit + "px"; h = fit; }
    if (above) top = r.top - GAP - h;
    const left = getComputedStyle(link).direction === "rtl" ? r.right - w : r.left;
    card.style.left = Math.max(EDGE, Math.min(left, root.clientWidth - w - EDGE)) + "px";
    card.style.top = top + "px";
    card.classList.toggle("mlglossary-above", above);
  }

  function show(link) {
    clearTimeout(timer);
    if (open && open.link === link) return;
    hide();
    const card = cardOf.get(link);
    open = { link, card };
    card.hidden = false;
    place(link, card);
    void card.offsetWidth; // start the transition from the hidden state
    card.classList.add("mlglossary-open");
  }

  function hide() {
    clearTimeout(timer);
    if (!open) return;
    open.card.classList.remove("mlglossary-open");
    open.card.hidden = true;
    open = null;
    pinned = false;
  }

  // after a grace delay: hide unless pointer or focus is on the link or in its card
  const leave = () => later(() => {
    if (!open || pinned) return;
    const { link, card } = open, a = document.activeElement;
    if (a !== link && !card.contains(a) && !link.matches(":hover") && !card.matches(":hover")) hide();
  }, HIDE);

  function wire(link) {
    link.addEventListener("pointerenter", (e) => {
      if (clickOnly || e.pointerType === "touch") return;
      if (open && open.link === link) clearTimeout(timer);
      else later(() => show(link), SHOW);
    });
    link.addEventListener("pointerleave", leave);
    link.addEventListener("focus", () => show(link));
    link.addEventListener("blur", leave); // stays open if focus moved into the card
    link.addEventListener("click", (e) => {
      // keyboard (detail 0) and mouse clicks in hover mode follow the link; so does a second tap
      if (e.detail === 0 || (!clickOnly && pointer === "mouse") || (pinned && open.link === link)) return;
      e.preventDefault();
      show(link);
      pinned = true;
    });
  }

  function init() {
    const box = document.querySelector(".mlglossary-cards");
    if (!box || box.dataset.mlglossaryReady) return;
    box.dataset.mlglossaryReady = "1";
    clickOnly = box.dataset.mlglossaryTrigger === "click";
    const byHref = new Map();
    for (const card of box.querySelectorAll(".mlglossary-card")) {
      byHref.set(card.dataset.mlglossaryHref, card);
      card.hidden = true;
      document.body.append(card); // out of the hidden box and the theme's stacking contexts
      card.addEventListener("pointerenter", () => clearTimeout(timer));
      card.addEventListener("pointerleave", leave);
      card.addEventListener("focusout", leave);
    }
    for (const link of document.querySelectorAll("a.mlglossary-term")) {
      const card = byHref.get(link.getAttribute("href"));
      if (!card) continue;
      cardOf.set(link, card);
      link.setAttribute("aria-describedby", card.id);
      if (link.hasAttribute("title")) { // the browser's own tooltip would double the card
        link.dataset.mlglossaryTitle = link.title;
        link.removeAttribute("title");
      }
      wire(link);
    }
    document.addEventListener("pointerdown", (e) => { pointer = e.pointerType; }, true);
    document.addEventListener("click", (e) => {
      if (open && !open.link.contains(e.target) && !open.card.contains(e.target)) hide();
    }, true);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
    const follow = () => open && place(open.link, open.card);
    addEventListener("scroll", follow, true);
    addEventListener("resize", follow);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
