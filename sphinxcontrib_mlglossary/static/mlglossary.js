/* sphinxcontrib-mlglossary: a term's card, a non-modal dialog (nodes.py), on hover, focus or tap. Shown, it follows
its term in the DOM (Tab goes into it), as a popover. Cards are the site's, by key (card_asset.py). */
(() => {
const SHOW = 150, HIDE = 200, GAP = 6, EDGE = 8, ID = "mlglossary-card--", cardOf = new Map(), doc = document, src = doc.currentScript.src;
// the shown term and card; pinned: opened by a click
let term, card, pinned, timer, frame, key, pointer, clickOnly, box, tried;
const on = (el, type, fn) => el.addEventListener(type, fn, true);
const later = (fn, ms) => { clearTimeout(timer); timer = setTimeout(fn, ms); };

function place() {
	const rects = term.getClientRects(), root = doc.documentElement, s = card.style, first = rects[0];
	if (!first) return;
	s.left = s.top = "0px"; // full width
	s.maxHeight = "";
	const w = card.offsetWidth;
	let h = card.offsetHeight, r = rects[rects.length - 1], top = r.bottom + GAP;
	// below the last line, or above the first if roomier; too tall, it scrolls
	const below = root.clientHeight - EDGE - top, over = first.top - GAP - EDGE, above = h > below && over > below;
	const fit = Math.max(above ? over : below, 0);
	if (h > fit) s.maxHeight = (h = fit) + "px";
	if (above) { r = first; top = r.top - GAP - h; }
	const left = getComputedStyle(term).direction == "rtl" ? r.right - w : r.left;
	s.left = Math.max(EDGE, Math.min(left, root.clientWidth - w - EDGE)) + "px";
	s.top = top + "px";
	card.classList.toggle("mlglossary-above", above);
}

function show(link) {
	clearTimeout(timer);
	if (term == link) return;
	hide();
	card = cardOf.get(term = link);
	link.after(card);
	card.hidden = false;
	card.showPopover?.();
	link.ariaExpanded &&= true; // where a click opens it
	place();
	card.offsetWidth; // fade in
	card.classList.add("mlglossary-open");
}

function hide(escape) {
	clearTimeout(timer);
	if (!term) return;
	card.classList.remove("mlglossary-open");
	if (escape && card.contains(doc.activeElement)) term.focus();
	card.hidePopover?.();
	card.hidden = true;
	term.ariaExpanded &&= false;
	term = pinned = null;
}

// after a grace delay, unless pointer or focus is on the term or card
const leave = () => later(() => {
	const a = doc.activeElement;
	term && !pinned && a != term && !card.contains(a) && !term.matches(":hover") && !card.matches(":hover") && hide();
}, HIDE);

// the cards' file is a script: it loads from file:// too
const load = (q) => doc.head.append(Object.assign(doc.createElement("script"), { src: new URL("mlglossary-cards.js", src) + q, onload: init }));
// card links are written from the site's root
const rebase = (el, at, h = el.getAttribute(at)) => h && !/^([#/]|[\w+.-]+:)/.test(h) &&
	el.setAttribute(at, (doc.documentElement.dataset.content_root ?? new URL("../", src) + "").replace(/^\.\/$/, "") + h);

function init() {
	const data = window.mlglossaryCards || {}, cards = data.cards || {};
	let stale;
	box ||= doc.body.appendChild(Object.assign(doc.createElement("div"), { className: "mlglossary-cards", hidden: true }));
	clickOnly = (box.dataset.mlglossaryTrigger = data.trigger) == "click";
	for (const link of doc.querySelectorAll("a.mlglossary-term")) {
		const k = link.className.match(/mlglossary-key-([\da-f]+)/)?.[1];
		let c = doc.getElementById(ID + k);
		if (!k || cardOf.has(link) || !c && !cards[k] && (stale = k)) continue;
		if (!c) {
			const t = doc.createElement("template");
			t.innerHTML = cards[k];
			box.append(c = t.content.firstChild);
			c.id = ID + k;
			rebase(c, "data-mlglossary-href");
			for (const a of c.querySelectorAll("a")) rebase(a, "href");
			c.hidden = true;
			c.popover = "manual";
			c.onpointerenter = () => clearTimeout(timer);
			c.onpointerleave = c.onfocusout = leave;
		}
		cardOf.set(link, c);
		link.setAttribute("aria-describedby", c.id);
		if (clickOnly) link.ariaExpanded = false;
		link.removeAttribute("title"); // the browser's tooltip would double the card
		on(link, "pointerenter", (e) => clickOnly || e.pointerType == "touch" || (term == link ? clearTimeout(timer) : later(() => show(link), SHOW)));
		on(link, "pointerleave", leave);
		on(link, "blur", leave);
		// keyboard focus only: not a click's, Escape's, or Chromium's on a #target on arrival
		on(link, "focus", () => link.matches(":focus-visible") && key != "Escape" && (key == "Tab" || !link.matches(":target")) && show(link));
		on(link, "click", (e) => {
			// keys (detail 0), mouse clicks in hover mode, a second click: follow the link
			if (!e.detail || (!clickOnly && pointer == "mouse") || (pinned && term == link)) return;
			e.preventDefault();
			link.ariaExpanded = false;
			show(link);
			pinned = true;
		});
	}
	// a cached copy older than the page: once more, under a key it lacks
	stale && !tried && load("?v=" + (tried = stale));
}

const follow = () => { frame ||= requestAnimationFrame(() => { frame = 0; term && place(); }); };
on(window, "pointerdown", (e) => { pointer = e.pointerType; key = ""; });
on(window, "keydown", (e) => { key = e.key; key == "Escape" && hide(1); });
on(window, "click", (e) => term && !term.contains(e.target) && !card.contains(e.target) && hide());
on(window, "scroll", follow); // once per frame, not per event
on(window, "resize", follow);
// cards the page defines, or the site's file: once per visit, then cached
const start = () => (window.mlglossaryCards ? init() : load(new URL(src).search));
doc.readyState == "loading" ? doc.addEventListener("DOMContentLoaded", start) : start();
})();
