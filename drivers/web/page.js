// adtest page library: installed once per document in the driver's
// isolated world (world.go), as globalThis.__adtestLib of that world.
// Snapshot is one walk over the DOM that returns compact JSON. Handles are
// "<document token>:<element number>": numbers are given once per element
// (WeakMap) and never reused, and the token changes with every document, so
// a handle finds exactly its element again or nothing (never another one).
(function () {
  const A = { tok: Math.random().toString(36).slice(2, 10), ids: new WeakMap(), els: new Map(), next: 1 };
  function handle(el) {
    let id = A.ids.get(el);
    if (!id) { id = A.next++; A.ids.set(el, id); A.els.set(id, new WeakRef(el)); }
    return A.tok + ':' + id;
  }
  function lookup(h) {
    const i = h.indexOf(':');
    if (i < 0 || h.slice(0, i) !== A.tok) return null;
    const r = A.els.get(+h.slice(i + 1));
    const el = r && r.deref();
    // A frame's old document stays a document: its window is gone.
    return el && el.isConnected && el.ownerDocument.defaultView ? el : null;
  }
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'iframe', 'object', 'embed']);
  // NAMED are the roles named from their content (ARIA 1.2's "name from:
  // contents", as Chromium applies it), adtest's text, and listitem (see
  // named).
  const NAMED = new Set(['button', 'link', 'heading', 'listitem', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'cell', 'gridcell', 'row', 'columnheader', 'rowheader', 'treeitem', 'tooltip', 'switch', 'checkbox', 'radio', 'text']);
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'spinbutton', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'slider', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
  const TEXTLIKE = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);
  const HEAD = { h1: 1, h2: 1, h3: 1, h4: 1, h5: 1, h6: 1 };
  const CONTROLS = 'a[href],button,input,select,textarea,[tabindex],[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem]';
  // named reports whether a role takes its name from its content. A list
  // item does only when it holds no control (its links and buttons carry
  // the names then, and an item named like its only link would make
  // label= selectors ambiguous); Chromium names no list item, adtest does
  // (scripts find one by its words). A row is named from its content inside
  // a grid (Chromium leaves the rows of tables unnamed).
  function named(el, role) {
    if (role === 'listitem') return !el.querySelector(CONTROLS);
    if (role === 'row') return !!el.closest('[role=grid],[role=treegrid]');
    return NAMED.has(role);
  }
  function norm(s) { return (s || '').replace(/\s+/g, ' ').trim(); }
  function inputType(el) { return (el.getAttribute('type') || 'text').toLowerCase(); }
  function implicitRole(el) {
    const t = el.localName;
    switch (t) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'button': case 'summary': return 'button';
      case 'input': {
        switch (inputType(el)) {
          case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'range': return 'slider';
          case 'hidden': return 'none';
          case 'search': return 'searchbox';
          case 'number': return 'spinbutton';
          default: return 'textbox';
        }
      }
      case 'textarea': return 'textbox';
      case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'option': return 'option';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'img': return el.getAttribute('alt') === '' ? 'none' : 'img';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      // A header or footer inside a section of the page is no landmark.
      case 'header': return sectioned(el) ? '' : 'banner';
      case 'footer': return sectioned(el) ? '' : 'contentinfo';
      case 'aside': return 'complementary';
      case 'form': return 'form';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return inGrid(el) ? 'gridcell' : 'cell';
      case 'th': return headerRole(el);
      case 'dialog': return 'dialog';
      case 'article': return 'article';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'output': return 'status';
      case 'fieldset': case 'details': return 'group';
      case 'hr': return 'separator';
      case 'section': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
    }
    if (HEAD[t]) return 'heading';
    if (el.isContentEditable && el.hasAttribute('contenteditable')) return 'textbox';
    return '';
  }
  // SECTIONS are the elements that make a header or footer inside them a
  // part of that section, not the page's banner or content info.
  const SECTIONS = 'article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]';
  function sectioned(el) {
    const p = el.parentElement;
    return !!(p && p.closest(SECTIONS));
  }
  // inGrid reports whether a table cell is in a grid (an interactive table).
  function inGrid(el) {
    const t = el.closest('table');
    const r = t && (t.getAttribute('role') || '').trim().toLowerCase();
    return r === 'grid' || r === 'treegrid';
  }
  // headerRole is a table header cell's role as Chromium decides it: its
  // scope when given, a column header in the table head, else a row
  // header when its row holds data cells.
  function headerRole(el) {
    const sc = (el.getAttribute('scope') || '').toLowerCase();
    if (sc === 'row' || sc === 'rowgroup') return 'rowheader';
    if (sc === 'col' || sc === 'colgroup') return 'columnheader';
    const row = el.parentElement;
    if (!row || (row.parentElement && row.parentElement.localName === 'thead')) return 'columnheader';
    for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'td') return 'rowheader';
    }
    return 'columnheader';
  }
  // flatParent is el's parent in the flat tree as far as roles go: its
  // parent element, or the host of its shadow root.
  function flatParent(el) {
    return el.assignedSlot || el.parentElement || (el.parentNode && el.parentNode.host) || null;
  }
  // REQUIRED are the roles Chromium gives only inside one of their
  // containers.
  const REQUIRED = {
    listitem: new Set(['list', 'directory', 'group']),
    option: new Set(['listbox', 'group']),
    treeitem: new Set(['tree', 'group']),
  };
  // inside reports whether the nearest ancestor of el with a role (in the
  // flat tree) has one of roles.
  function inside(el, roles) {
    for (let p = flatParent(el), i = 0; p && i < 64; p = flatParent(p), i++) {
      const r = roleOf(p);
      if (r !== '' && r !== 'none') return roles.has(r);
    }
    return false;
  }
  function roleOf(el) {
    const r = el.getAttribute('role');
    if (r) {
      const first = r.trim().split(/\s+/)[0].toLowerCase();
      if (first === 'presentation' || first === 'none') return 'none';
      if (first === 'generic') return '';
      // A list item, option or tree item outside its container is none
      // (Chromium's rule for these roles without their required parent).
      const need = REQUIRED[first];
      if (need) return inside(el, need) ? first : '';
      if (first) return first;
    }
    return implicitRole(el);
  }
  // styleOf is the computed style of el in its own document (an element of
  // a same-origin frame has its own window).
  function styleOf(el) {
    const w = el.ownerDocument.defaultView || window;
    return w.getComputedStyle(el);
  }
  // inlineDisplay reports whether a display value lays an element out in
  // the line (no break before or after it, as innerText has it).
  function inlineDisplay(d) {
    return d.startsWith('inline') || d === 'contents' || d.startsWith('ruby');
  }
  // kids are the children of n in the flat tree: a shadow host shows its
  // shadow root, a slot the nodes assigned to it (else its fallback).
  function kids(n) {
    if (n.shadowRoot) return n.shadowRoot.childNodes;
    if (n.localName === 'slot' && n.assignedNodes) {
      const a = n.assignedNodes();
      if (a.length) return a;
    }
    return n.childNodes;
  }
  // textOf is the text a person reads in a subtree (the accname rule for
  // content, rendered as innerText renders it): text of hidden elements
  // (display none, visibility hidden) is left out, block boxes and <br>
  // break words, inline elements join their text without a space (<wbr>,
  // highlighted code split into spans). Form controls' own content is left
  // out; an image reads as its alt text.
  function textOf(n, skip) {
    return textIn(n, skip, n.nodeType !== 1 || styleOf(n).visibility === 'visible', false);
  }
  // textIn is textOf of n whose own text shows when shows is set. With all
  // set, hidden content counts too (the content of a hidden element an
  // aria-labelledby names, which accname reads whole). Content hidden
  // from assistive technology (aria-hidden) is left out; an svg reads as
  // its title when it has one.
  function textIn(n, skip, shows, all) {
    // Only text inside (most leaves): the text as it is.
    if (!n.firstElementChild && !n.shadowRoot && n.localName !== 'slot') return shows ? n.textContent : '';
    let s = '';
    const ks = kids(n);
    for (let i = 0; i < ks.length; i++) {
      const c = ks[i];
      if (c.nodeType === 3) { if (shows) s += c.data; continue; }
      if (c.nodeType !== 1 || c === skip) continue;
      const t = c.localName;
      if (SKIP.has(t) || t === 'select' || t === 'textarea' || t === 'input') continue;
      if (t === 'br') { s += ' '; continue; }
      if (t === 'wbr') continue;
      if (c.getAttribute('aria-hidden') === 'true') continue;
      const cs = styleOf(c);
      if (cs.display === 'none' && !all) continue;
      const vis = all || cs.visibility === 'visible';
      if (t === 'img') { if (vis) s += ' ' + (c.getAttribute('alt') || '') + ' '; continue; }
      if (t === 'svg') {
        const ti = c.querySelector(':scope > title');
        if (ti) { if (vis) s += ' ' + ti.textContent + ' '; continue; }
      }
      const sub = textIn(c, skip, vis, all);
      s += inlineDisplay(cs.display) ? sub : ' ' + sub + ' ';
    }
    return s;
  }
  // contentRect is the box of el's content (el has display: contents).
  function contentRect(el) {
    const rg = el.ownerDocument.createRange();
    rg.selectNodeContents(el);
    return rg.getBoundingClientRect();
  }
  function hasDirectText(el) {
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 && /\S/.test(c.data)) return true;
    }
    return false;
  }
  // RUN_* classify an element's content: no text yet, one inline run of
  // text, or not a run (a block box, a control or an element with a role
  // of its own inside).
  const RUN_EMPTY = 0, RUN_TEXT = 1, RUN_NONE = 2;
  // runOf classifies el's content: a run is what a person reads as one
  // piece of text, like <span><strong>2</strong> <span>items left</span></span>.
  function runOf(el) {
    const ks = kids(el);
    // Roles first: they cost no style, and most containers fail here.
    for (let i = 0; i < ks.length; i++) {
      const c = ks[i];
      if (c.nodeType !== 1) continue;
      const r = roleOf(c);
      if ((r !== '' && r !== 'none') || isInteractive(c, r)) return RUN_NONE;
    }
    let res = RUN_EMPTY;
    for (let i = 0; i < ks.length; i++) {
      const c = ks[i];
      if (c.nodeType === 3) { if (/\S/.test(c.data)) res = RUN_TEXT; continue; }
      if (c.nodeType !== 1) continue;
      const t = c.localName;
      if (SKIP.has(t) || t === 'br' || t === 'wbr') continue;
      const d = styleOf(c).display;
      if (d === 'none') continue;
      if (!inlineDisplay(d)) return RUN_NONE;
      const sub = runOf(c);
      if (sub === RUN_NONE) return RUN_NONE;
      if (sub === RUN_TEXT) res = RUN_TEXT;
    }
    return res;
  }
  // byIds is the name given by the ids of an aria-labelledby of el: each
  // element is looked up in el's own tree scope (its shadow root, else its
  // document), and read whole when it is hidden itself (accname: a hidden
  // label still names).
  function byIds(el, ids) {
    const scope = el.getRootNode();
    if (!scope.getElementById) return '';
    let s = '';
    for (const id of ids.split(/\s+/)) {
      const e = id && scope.getElementById(id);
      if (!e) continue;
      const al = e.getAttribute('aria-label');
      if (al && al.trim()) { s += ' ' + al; continue; }
      const hidden = !e.checkVisibility({ visibilityProperty: true }) && styleOf(e).display !== 'contents';
      s += ' ' + (embedded(e) || textIn(e, null, hidden || styleOf(e).visibility === 'visible', hidden));
    }
    return norm(s);
  }
  // embedded is the value of a control read as part of a name (a text
  // field's value, a select's chosen option), '' for anything else.
  function embedded(e) {
    const t = e.localName;
    if (t === 'textarea' || (t === 'input' && TEXTLIKE.has(inputType(e)))) return e.value;
    if (t === 'select') { const o = e.selectedOptions; return o && o.length ? o[0].textContent : ''; }
    return '';
  }
  // accName computes the accessible name; content is the element's text
  // when the caller already has it (null: compute on demand).
  function accName(el, role, content) {
    const lb = el.getAttribute('aria-labelledby');
    if (lb) { const n = byIds(el, lb); if (n) return n; }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return norm(al);
    const t = el.localName;
    if (t === 'input' || t === 'textarea' || t === 'select' || t === 'button' || t === 'meter' || t === 'progress') {
      if (el.labels && el.labels.length) {
        let s = '';
        for (const l of el.labels) s += ' ' + textOf(l, el);
        s = norm(s);
        if (s) return s;
      }
      if (t === 'input') {
        const ty = inputType(el);
        if (ty === 'button' || ty === 'submit' || ty === 'reset') return norm(el.value || (ty === 'submit' ? 'Submit' : ty === 'reset' ? 'Reset' : ''));
        if (ty === 'image') return norm(el.getAttribute('alt') || el.value || 'Submit');
      }
    }
    if (t === 'img' || t === 'area') { const a = el.getAttribute('alt'); if (a) return norm(a); }
    if (named(el, role) || t === 'button') { const s = content !== null && content !== undefined ? content : norm(textOf(el)); if (s) return s; }
    if (t === 'fieldset') {
      const lg = el.querySelector(':scope > legend');
      if (lg) { const s = norm(textOf(lg)); if (s) return s; }
    }
    if (t === 'table') {
      const cp = el.querySelector(':scope > caption');
      if (cp) { const s = norm(textOf(cp)); if (s) return s; }
    }
    const ti = el.getAttribute('title');
    if (ti) return norm(ti);
    const ph = el.getAttribute('placeholder');
    if (ph) return norm(ph);
    return '';
  }
  function valueOf(el, role) {
    const t = el.localName;
    if (t === 'input') {
      const ty = inputType(el);
      if (ty === 'checkbox' || ty === 'radio' || ty === 'button' || ty === 'submit' || ty === 'reset' || ty === 'image') return '';
      if (ty === 'password') return el.value ? '••••••••' : '';
      return el.value;
    }
    if (t === 'textarea') return el.value;
    if (t === 'select') {
      const o = el.selectedOptions;
      return o && o.length ? norm(o[0].textContent) : '';
    }
    if (t === 'progress' || t === 'meter') return String(el.value);
    if (role === 'textbox' && el.isContentEditable) return norm(el.textContent);
    const v = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    return v || '';
  }
  function isEnabled(el) {
    if (el.getAttribute('aria-disabled') === 'true') return false;
    try { if (el.matches(':disabled')) return false; } catch (e) { }
    return true;
  }
  function isEditable(el, role) {
    if (!isEnabled(el)) return false;
    const t = el.localName;
    if (t === 'input') return TEXTLIKE.has(inputType(el)) && !el.readOnly;
    if (t === 'textarea') return !el.readOnly;
    if (el.isContentEditable) return true;
    return false;
  }
  function isSelected(el) {
    const t = el.localName;
    if (t === 'input') { const ty = inputType(el); if (ty === 'checkbox' || ty === 'radio') return el.checked; }
    if (t === 'option') return el.selected;
    return el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-pressed') === 'true';
  }
  function isInteractive(el, role) {
    if (INTERACTIVE.has(role)) return true;
    if (el.hasAttribute('onclick')) return true;
    const ti = el.getAttribute('tabindex');
    if (ti !== null && +ti >= 0 && role !== 'dialog') return true;
    return false;
  }
  // Viewport size, read once per call of the library (reading innerWidth
  // is not free).
  let VW = 0, VH = 0;
  function measure() { VW = innerWidth; VH = innerHeight; }
  function viewportBox(r) {
    const vw = VW, vh = VH;
    const x1 = Math.max(r.left, 0), y1 = Math.max(r.top, 0);
    const x2 = Math.min(r.right, vw), y2 = Math.min(r.bottom, vh);
    if (x2 <= x1 || y2 <= y1) return null;
    return [x1, y1, x2, y2];
  }
  function shown(el, r) {
    return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true });
  }
  // frameDoc is the document of a same-origin frame element (null: none,
  // or another origin's).
  function frameDoc(f) {
    try { return f.contentDocument; } catch (e) { return null; }
  }
  function isFrame(el) { return el.localName === 'iframe' || el.localName === 'frame'; }
  // up is the parent of n in the flat tree (the tree that is rendered): a
  // slotted node's slot, across shadow roots to their hosts and from a
  // frame's root element to the frame element.
  function up(n) {
    const p = n.assignedSlot || n.parentElement || (n.parentNode && n.parentNode.host);
    if (p) return p;
    const d = n.ownerDocument;
    return d !== document && n === d.documentElement && d.defaultView ? d.defaultView.frameElement : null;
  }
  // frameOrigin is where a frame element's content box starts in its own
  // document's viewport.
  function frameOrigin(f) {
    const r = f.getBoundingClientRect(), cs = styleOf(f);
    return [r.left + f.clientLeft + parseFloat(cs.paddingLeft), r.top + f.clientTop + parseFloat(cs.paddingTop)];
  }
  // docOrigin is where the viewport of document d starts in the page's.
  function docOrigin(d) {
    const f = d !== document && d.defaultView ? d.defaultView.frameElement : null;
    if (!f) return [0, 0];
    const o = docOrigin(f.ownerDocument), fo = frameOrigin(f);
    return [o[0] + fo[0], o[1] + fo[1]];
  }
  // pageRect is r, a rect of an element of document d, in the page's
  // viewport (an element in a same-origin frame is offset by its frames).
  function pageRect(r, d) {
    if (d === document) return r;
    const o = docOrigin(d);
    return { left: r.left + o[0], top: r.top + o[1], right: r.right + o[0], bottom: r.bottom + o[1], width: r.width, height: r.height };
  }
  function rectOf(el) { return pageRect(el.getBoundingClientRect(), el.ownerDocument); }
  // deepHit is the innermost element at (x, y) of the page: through open
  // shadow roots and into same-origin frames. A hit on a host's own text
  // that a slot shows is a hit on that slot (the browser reports the
  // host: the text's parent in the DOM).
  function deepHit(x, y) {
    let h = document.elementFromPoint(x, y);
    for (;;) {
      while (h && h.shadowRoot) {
        const inner = h.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === h) { h = slottedTextAt(h, x, y) || h; break; }
        h = inner;
      }
      const d = h && isFrame(h) ? frameDoc(h) : null;
      if (!d) return h;
      const o = frameOrigin(h);
      x -= o[0]; y -= o[1];
      const inner = d.elementFromPoint(x, y);
      if (!inner) return h;
      h = inner;
    }
  }
  // slottedTextAt is the slot showing the text child of host h that lies
  // at (x, y) (null: no such text).
  function slottedTextAt(h, x, y) {
    for (let c = h.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 3 || !c.assignedSlot) continue;
      const rg = h.ownerDocument.createRange();
      rg.selectNodeContents(c);
      for (const r of rg.getClientRects()) {
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return c.assignedSlot;
      }
    }
    return null;
  }
  // hitsSelf reports whether the element at (x, y) is el, a descendant in
  // the flat tree (slotted content and shadow internals included), or in
  // a label of el.
  function hitsSelf(el, x, y) {
    const h = deepHit(x, y);
    if (!h) return { ok: false, hit: null };
    for (let n = h; n; n = up(n)) {
      if (n === el || labels(n, el)) return { ok: true, hit: h };
    }
    return { ok: false, hit: h };
  }
  // labels reports whether n is a label of el.
  function labels(n, el) {
    return n.localName === 'label' && n.control === el;
  }
  // nameOf is a short name of a container: tag, id or first class, label.
  function nameOf(el) {
    let d = el.localName;
    if (el.id) d += '#' + el.id;
    else if (el.classList.length) d += '.' + el.classList[0];
    const l = el.getAttribute('aria-label');
    if (l) d += ' "' + norm(l) + '"';
    return d;
  }
  // clipBox is the part of box [x1, y1, x2, y2] inside clip (null: none).
  function clipBox(box, clip) {
    if (!box || !clip) return box;
    const b = [Math.max(box[0], clip[0]), Math.max(box[1], clip[1]), Math.min(box[2], clip[2]), Math.min(box[3], clip[3])];
    return b[2] > b[0] && b[3] > b[1] ? b : null;
  }
  // childClip narrows clip by el when el clips its overflowing content
  // (a scroll container, overflow hidden or clip): what lies outside its
  // padding box is not in view.
  function childClip(el, clip) {
    if (isFrame(el)) {
      // A frame shows its document inside its content box.
      const r = rectOf(el), cs = styleOf(el);
      const x1 = r.left + el.clientLeft + parseFloat(cs.paddingLeft), y1 = r.top + el.clientTop + parseFloat(cs.paddingTop);
      const own = [x1, y1, x1 + el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight), y1 + el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)];
      return clipBox(own, clip || [0, 0, VW, VH]) || [0, 0, 0, 0];
    }
    if (el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth) return clip;
    const doc = el.ownerDocument;
    if (el === doc.documentElement || el === doc.body) return clip;
    const cs = styleOf(el);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') return clip;
    const r = rectOf(el);
    const x1 = r.left + el.clientLeft, y1 = r.top + el.clientTop;
    const own = [x1, y1, x1 + el.clientWidth, y1 + el.clientHeight];
    return clipBox(own, clip || [0, 0, VW, VH]) || [0, 0, 0, 0];
  }
  // clipOf is the clip of el's scroll containers and clipping ancestors.
  function clipOf(el) {
    const chain = [];
    for (let n = up(el); n && n !== document.documentElement; n = up(n)) chain.push(n);
    let clip = null;
    for (let i = chain.length - 1; i >= 0; i--) clip = childClip(chain[i], clip);
    return clip;
  }
  // opaque says why adtest cannot see inside el ('' when it can): another
  // origin's frame, a canvas, or a custom element hit on itself with no
  // open shadow root (its shadow root is closed, or it draws itself).
  function opaque(el) {
    if (!el) return '';
    if (isFrame(el) && !frameDoc(el)) return 'a cross-origin frame: adtest cannot see inside it';
    if (el.localName === 'canvas') return 'a canvas: adtest cannot see what it draws';
    if (el.localName.includes('-') && !el.shadowRoot) return 'a custom element with no open shadow root: what a closed shadow root holds, adtest cannot see';
    return '';
  }
  // describeHit describes an element a press lands on, with what adtest
  // cannot see inside it.
  function describeHit(el) {
    const why = opaque(el);
    return describe(el) + (why ? ' (' + why + ')' : '');
  }
  function describe(el) {
    if (!el) return 'nothing';
    let d = el.localName;
    if (el.id) d += '#' + el.id;
    else if (el.classList.length) d += '.' + el.classList[0];
    const n = norm(el.getAttribute('aria-label') || textOf(el));
    if (n) d += ' "' + (n.length > 60 ? n.slice(0, 57) + '...' : n) + '"';
    return d;
  }

  function snapshot(opts) {
    const out = [];
    const raw = !!opts.raw;
    let active = document.activeElement;
    for (;;) {
      const inner = active && (active.shadowRoot ? active.shadowRoot.activeElement : isFrame(active) ? (frameDoc(active) || {}).activeElement : null);
      if (!inner) break;
      active = inner;
    }
    measure();
    const vw = VW, vh = VH;
    // clipFor is the clip of el's ancestors, computed only for elements in
    // the viewport (nothing outside it can be in view) and once per ancestor.
    const clips = new Map();
    function clipFor(el) {
      const p = up(el);
      if (!p || p === document.documentElement) return null;
      if (clips.has(p)) return clips.get(p);
      const c = childClip(p, clipFor(p));
      clips.set(p, c);
      return c;
    }
    function emit(el, role, parent, depth, contents) {
      const r = pageRect(contents ? contentRect(el) : el.getBoundingClientRect(), el.ownerDocument);
      let box = viewportBox(r);
      if (box) box = clipBox(box, clipFor(el));
      // Rendered is Playwright's visible: a box with an area (walk leaves
      // out display none and visibility hidden; opacity 0 is rendered).
      // In view is rendered, inside the viewport and its clipping
      // ancestors.
      const rendered = r.width > 0 && r.height > 0;
      const vis = box !== null && rendered;
      const n = { r: role, p: parent, d: depth, k: handle(el), x: r.left, y: r.top, w: r.width, h: r.height };
      let f = 0;
      if (role === 'text') {
        const s = norm(textIn(el, null, true)); // walk emits no visibility hidden element
        n.t = s; n.l = s;
        // Words an author named (<pre aria-label="Published HTML">) are
        // found by that name as well as by their text.
        if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) {
          const name = accName(el, '', null);
          if (name) n.l = name;
        }
      } else {
        // Name-from-content roles show their whole text; other roles
        // (status, alert, cell, ...) their own text when they have some.
        const byContent = named(el, role);
        // A generic node is there for its id (or --raw): its text is read
        // by the text nodes inside it (a label's by its control's name).
        const content = byContent || (hasDirectText(el) && (raw || role !== 'generic')) ? norm(textIn(el, null, !contents)) : null;
        if (content) n.t = content;
        const name = accName(el, role, byContent ? content : null);
        if (name) n.l = name;
        const v = valueOf(el, role);
        if (v) n.v = v;
        if (isEditable(el, role)) f |= 2;
        if (isSelected(el)) f |= 4;
        if (isEnabled(el)) f |= 16;
      }
      if (role === 'text') f |= 16;
      if (isInteractive(el, role)) f |= 64;
      const id = el.id || el.getAttribute('data-testid');
      if (id) n.i = id;
      if (vis) {
        f |= 1;
        if (hitsSelf(el, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2).ok) f |= 32;
      }
      if (rendered) f |= 128;
      // A document's body is focused when nothing else is, unless it is an
      // editor of its own (a contenteditable body in a frame).
      if (el === active && (active !== el.ownerDocument.body || el.isContentEditable)) f |= 8;
      n.f = f;
      out.push(n);
      return out.length - 1;
    }
    // walk emits el's node, if it has one, and walks its children. A
    // generic element (no role) is a text node when it holds text of its
    // own or is one run of inline text; an element with an id keeps its
    // node; an element with visibility hidden has none (its visible
    // children do). inNamed is false outside named nodes, and inside a
    // text node, a control or a node named from its content the words it
    // shows (true when it shows none): there an element showing text of
    // its own, not the whole text, is a part (flag 256): a node that text=
    // finds, as Playwright's getByText finds "fragmented" in <p>a
    // <span>fragmented</span> slide.</p> or a line of a button made of two
    // blocks, that the snapshot does not print (the node around it shows
    // its words).
    function walk(el, parent, depth, inNamed) {
      const t = el.localName;
      if (t === 'iframe' || t === 'frame') { walkFrame(el, parent, depth, inNamed); return; }
      if (SKIP.has(t)) return;
      if (el.getAttribute('aria-hidden') === 'true') return;
      // One call answers for the common case (rendered, not visibility
      // hidden); a second tells visibility hidden from no box.
      const seen = el.checkVisibility({ visibilityProperty: true });
      if (!seen && !el.checkVisibility()) {
        // display: contents (a slot, a wrapper) has no box, its children
        // do; with an id it keeps a node, as big as its content.
        if (styleOf(el).display !== 'contents') return;
        let p = parent, d = depth;
        if (el.id || el.getAttribute('data-testid')) { p = emit(el, 'generic', parent, depth, true); d = depth + 1; }
        walkKids(el, p, d, inNamed);
        return;
      }
      const role = roleOf(el);
      let as = role, part = false;
      if (!seen) as = '';
      else if (role === '' || role === 'none') {
        as = '';
        // Labels of controls and legends of fieldsets are the names of
        // those; they are not shown again as text.
        const naming = (t === 'label' && el.control) || (t === 'legend' && el.parentElement && el.parentElement.localName === 'fieldset');
        const id = el.id || el.getAttribute('data-testid');
        let text = !naming && (hasDirectText(el) || runOf(el) === RUN_TEXT);
        if (text && inNamed && !id) {
          const own = typeof inNamed === 'string' ? norm(textIn(el, null, true)) : '';
          part = own !== '' && own !== inNamed;
          text = part;
        }
        if (text) as = 'text';
        else if (id || (raw && role === '')) as = 'generic';
      }
      // A defined custom element without an open shadow root may have a
      // closed one: it gets a node, marked for the driver to ask Chromium
      // (c: 1, the node is there anyway; 2, only for this).
      let closed = 0;
      if (t.includes('-') && !el.shadowRoot && el.matches(':defined')) {
        closed = as ? 1 : 2;
        if (!as) as = 'generic';
      }
      let p = parent, d = depth;
      if (as) { p = emit(el, as, parent, depth); d = depth + 1; }
      if (part) out[p].f |= 256;
      if (closed) out[p].c = closed;
      // A list box shows its options; a drop-down and a text area do not.
      if (t === 'textarea' || (t === 'select' && role !== 'listbox')) return;
      let inside = inNamed;
      if (as !== '' && named(el, as)) inside = out[p].t || true;
      walkKids(el, p, d, inside);
    }
    // walkFrame walks the document of a same-origin frame as part of the
    // tree (a frame with an id is a node of its own).
    function walkFrame(el, parent, depth, inNamed) {
      if (el.getAttribute('aria-hidden') === 'true' || !el.checkVisibility({ visibilityProperty: true })) return;
      let p = parent, d = depth;
      const doc = frameDoc(el);
      if (!doc) {
        // Another origin's document (or a sandbox's, an origin of its own):
        // the driver cannot read it, and says so.
        p = emit(el, 'iframe', parent, depth);
        const nm = el.getAttribute('title') || el.getAttribute('aria-label');
        if (nm) out[p].l = norm(nm);
        const sb = el.getAttribute('sandbox');
        if (sb !== null && !/(^|\s)allow-same-origin(\s|$)/i.test(sb)) {
          out[p].u = 'sandboxed frame';
          return;
        }
        let origin = '';
        try { origin = new URL(el.src, el.baseURI).origin; } catch (e) { }
        out[p].u = 'cross-origin frame' + (origin && origin !== 'null' ? ' (' + origin + ')' : '');
        return;
      }
      if (el.id || el.getAttribute('data-testid')) { p = emit(el, 'iframe', parent, depth); d = depth + 1; }
      const root = doc && (doc.body || doc.documentElement);
      if (root) walk(root, p, d, inNamed);
    }
    // walkKids walks the children of el in the flat tree: a shadow host's
    // shadow root (its light children show through its slots), a slot's
    // assigned elements (else its fallback content).
    function walkKids(el, p, d, inside) {
      let first = el.firstElementChild;
      if (el.shadowRoot) first = el.shadowRoot.firstElementChild;
      else if (el.localName === 'slot' && el.assignedElements) {
        const a = el.assignedElements();
        if (a.length) { for (const c of a) walk(c, p, d, inside); return; }
      }
      for (let c = first; c; c = c.nextElementSibling) walk(c, p, d, inside);
    }
    const root = document.body || document.documentElement;
    if (root) walk(root, -1, 0, false);
    return JSON.stringify({ u: location.href, ti: document.title, vw: vw, vh: vh, n: out });
  }

  // Scroll events anywhere in the document (a smooth scroll in progress
  // moves every element under it): the time of the last one.
  addEventListener('scroll', () => { A.scrollT = performance.now(); }, { capture: true, passive: true });
  function parentOf(n) { return n.parentElement || (n.parentNode && n.parentNode.host) || null; }
  // nearest is how far to scroll so that [a1, a2] comes inside [b1, b2]
  // moving as little as possible (0 when it is inside already); an element
  // larger than the box gets its start aligned.
  // middle is the scroll that centres [a1, a2] in [b1, b2].
  function middle(a1, a2, b1, b2) {
    return Math.round((a1 + a2) / 2 - (b1 + b2) / 2);
  }
  function nearest(a1, a2, b1, b2) {
    if (a1 >= b1 && a2 <= b2) return 0;
    if (a1 < b1 || a2 - a1 > b2 - b1) return a1 - b1;
    return a2 - b2;
  }
  // pageScrollsFor reports whether a user can scroll the viewport that way
  // (the root's overflow, or the body's when the root's is visible).
  function pageScrollsFor(vertical) {
    const p = vertical ? 'overflowY' : 'overflowX';
    let o = getComputedStyle(document.documentElement)[p];
    if (o === 'visible' && document.body) o = getComputedStyle(document.body)[p];
    return o !== 'hidden' && o !== 'clip';
  }
  // reveal scrolls el into view the way a user would have to: each
  // container a user can scroll (overflow auto or scroll), innermost first,
  // then the page, moves only as far as needed. A container whose overflow
  // is hidden or clip is never scrolled. It reports whether anything moved.
  function reveal(el, centre) {
    const delta = centre ? middle : nearest;
    let moved = false;
    for (let n = parentOf(el); n && n !== document.body && n !== document.documentElement; n = parentOf(n)) {
      if (n.nodeType !== 1) continue;
      const v = canScroll(n, true), hz = canScroll(n, false);
      if (!v && !hz) continue;
      const r = el.getBoundingClientRect(), c = n.getBoundingClientRect();
      const x1 = c.left + n.clientLeft, y1 = c.top + n.clientTop;
      const dy = v ? delta(r.top, r.bottom, y1, y1 + n.clientHeight) : 0;
      const dx = hz ? delta(r.left, r.right, x1, x1 + n.clientWidth) : 0;
      if (dx || dy) {
        const before = n.scrollLeft + n.scrollTop;
        n.scrollBy({ left: dx, top: dy, behavior: 'instant' });
        moved = moved || n.scrollLeft + n.scrollTop !== before;
      }
    }
    const root = document.documentElement, r = el.getBoundingClientRect();
    const dy = pageScrollsFor(true) ? delta(r.top, r.bottom, 0, root.clientHeight) : 0;
    const dx = pageScrollsFor(false) ? delta(r.left, r.right, 0, root.clientWidth) : 0;
    if (dx || dy) {
      const before = scrollX + scrollY;
      scrollBy({ left: dx, top: dy, behavior: 'instant' });
      moved = moved || scrollX + scrollY !== before;
    }
    return moved;
  }
  // moving reports whether el may be in motion: an animation or transition
  // runs on it or on one of its ancestors, or the document scrolled within
  // the last 100 ms.
  function moving(el) {
    if (A.scrollT && performance.now() - A.scrollT < 100) return true;
    for (const an of document.getAnimations()) {
      if (an.playState !== 'running') continue;
      const t = an.effect && an.effect.target;
      if (t && (t === el || t.contains(el))) return true;
    }
    return false;
  }
  // The press guard: while armed for an element, a press (pointerdown, or
  // mousedown without one) whose target is not that element, a descendant
  // in the flat tree or a label of it is stopped before the page's own
  // listeners see it and counted as a miss; so is the rest of that press
  // (release, click). A press that lands is counted as a hit, and the rest
  // of it goes where the browser sends it: what the page did on the press
  // (a popup opened under the pointer, a list that re-rendered its rows)
  // is the click's effect, as under a person's hand, not a cover. It checks
  // where each press really lands, at the moment it lands: an element that
  // moved or got covered after the last check is not pressed by mistake.
  const PRESS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  function guard(e) {
    const a = A.armed;
    if (!a || !e.isTrusted) return;
    if (performance.now() > a.until) { A.armed = null; return; }
    const t = e.type;
    if (t === 'pointerdown' || (t === 'mousedown' && !a.pointer)) a.press = lands(e, a);
    if (t === 'pointerdown') a.pointer = true;
    if (t === 'pointerup') a.pointer = false;
    // An event of no press begun while armed counts by its own target.
    const on = a.press === undefined ? lands(e, a) : a.press;
    if (on) { if (t === 'mousedown') a.hits++; return; }
    e.preventDefault();
    e.stopImmediatePropagation();
  }
  // lands reports whether event e reached the armed element, and records
  // what it reached instead when not.
  function lands(e, a) {
    const path = e.composedPath();
    if (path.some(n => n === a.el || labels(n, a.el))) return true;
    if (!a.miss) a.miss = describeHit(path[0] && path[0].nodeType === 1 ? path[0] : e.target);
    return false;
  }
  function arm(el, ms) {
    A.armed = { el: el, until: performance.now() + ms, miss: '', hits: 0, press: undefined, pointer: false };
    if (!A.hooked) {
      A.hooked = true;
      for (const t of PRESS) addEventListener(t, guard, true);
    }
  }
  // disarm ends the guard and reports what the presses hit; the report is
  // kept for pressed until the next target().
  function disarm() {
    const a = A.armed;
    A.armed = null;
    if (!a) A.pressed = { state: 'none' };
    else if (!a.miss) A.pressed = { state: 'done', hits: a.hits };
    else A.pressed = { state: 'missed', desc: describe(a.el), covered: a.miss, hits: a.hits };
    return A.pressed;
  }
  // pressed is the report of the last disarm since the last target().
  function pressed() {
    return A.pressed || { state: 'none' };
  }

  // target finds the element of a handle and, when scroll is set, scrolls it
  // into view (only as far as needed). It reports where to act, what would
  // receive the event there, the element's box and whether it may be
  // moving. With armMs > 0 and nothing covering the point, it arms the
  // press guard for the element for that long.
  function target(h, scroll, armMs) {
    A.armed = null;
    A.pressed = null;
    const el = lookup(h);
    if (!el) return { state: 'stale' };
    measure();
    let r = rectOf(el);
    if (!shown(el, r)) return { state: 'not_visible', desc: describe(el) };
    let clip = clipOf(el);
    let b = clipBox(viewportBox(r), clip);
    const view = clip ? clipBox([0, 0, VW, VH], clip) : [0, 0, VW, VH];
    const inside = b && view && r.left >= view[0] && r.top >= view[1] && r.right <= view[2] && r.bottom <= view[3];
    let scrolled = scroll && !inside && reveal(el, false);
    for (let pass = 0; ; pass++) {
      if (scrolled) {
        r = rectOf(el);
        clip = clipOf(el);
        b = clipBox(viewportBox(r), clip);
      }
      const res = { state: 'ok', desc: describe(el), enabled: isEnabled(el), editable: isEditable(el, roleOf(el)), box: [r.left, r.top, r.width, r.height], scrolled: scrolled, moving: moving(el) };
      if (!b) { res.state = 'out_of_view'; return res; }
      res.x = (b[0] + b[2]) / 2; res.y = (b[1] + b[3]) / 2;
      const hs = hitsSelf(el, res.x, res.y);
      // Scrolled only as far as needed, the element can end under a bar
      // fixed at that edge: a user scrolls on until it is clear, so centre
      // it (once) in what may be scrolled.
      if (!hs.ok && scroll && pass === 0 && reveal(el, true)) { scrolled = true; continue; }
      if (!hs.ok) res.covered = describeHit(hs.hit);
      else if (armMs > 0) arm(el, armMs);
      return res;
    }
  }

  // Input types a user sets with the browser's picker, not by typing: the
  // picker commits the value at once (input, then change).
  const PICKED = new Set(['date', 'datetime-local', 'month', 'time', 'week', 'color', 'range']);
  // fillStart prepares a fill as a user's: it focuses the field and selects
  // its whole content, which the text inserted next replaces (the browser
  // fires beforeinput/input, and change only when the field commits). A
  // select chooses its option as the browser's own list does (input, then
  // change); so does an input filled by a picker.
  function fillStart(h, text) {
    const el = lookup(h);
    if (!el) return { state: 'stale' };
    if (!isEnabled(el)) return { state: 'disabled', desc: describe(el) };
    if (el.localName === 'select') {
      const want = norm(text).toLowerCase();
      for (const o of el.options) {
        if (norm(o.textContent).toLowerCase() === want || o.value.toLowerCase() === want) {
          el.focus();
          if (!o.selected || el.multiple) {
            if (el.multiple) for (const x of el.options) x.selected = false;
            o.selected = true;
            el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
            el.dispatchEvent(new Event('change', { bubbles: true }));
          }
          return { state: 'done', value: norm(o.textContent) };
        }
      }
      return { state: 'no_option', desc: describe(el), options: Array.from(el.options, o => norm(o.textContent)) };
    }
    if (!isEditable(el, roleOf(el))) return { state: 'not_editable', desc: describe(el), why: opaque(el) };
    if (el.localName === 'input' && PICKED.has(inputType(el))) {
      el.focus();
      el.value = text.trim();
      if (el.value !== text.trim()) return { state: 'bad_value', desc: describe(el) };
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { state: 'done', value: el.value };
    }
    el.focus();
    if (el.localName === 'input' || el.localName === 'textarea') {
      el.select();
    } else {
      // The selection of the element's own document: an editor may be
      // the body of a frame.
      const d = el.ownerDocument, s = d.defaultView.getSelection(), rg = d.createRange();
      rg.selectNodeContents(el); s.removeAllRanges(); s.addRange(rg);
    }
    return { state: 'focused' };
  }
  // fillEnd reads what the field shows now: a text field's value, or the
  // text a person reads in an editor (innerText, whitespace collapsed).
  function fillEnd(h) {
    const el = lookup(h);
    if (!el) return { state: 'stale' };
    if (el.localName === 'input' || el.localName === 'textarea') return { state: 'done', value: el.value, exact: true };
    return { state: 'done', value: norm(el.innerText) };
  }
  function focus(h) {
    const el = lookup(h);
    if (!el) return { state: 'stale' };
    el.focus();
    return { state: deepActive() === el ? 'done' : 'not_focusable', desc: describe(el) };
  }
  // canScroll reports whether n scrolls its own content that way.
  function canScroll(n, vertical) {
    if (vertical ? n.scrollHeight <= n.clientHeight : n.scrollWidth <= n.clientWidth) return false;
    if (n.clientHeight === 0 || n.clientWidth === 0) return false;
    const o = getComputedStyle(n)[vertical ? 'overflowY' : 'overflowX'];
    return o === 'auto' || o === 'scroll' || o === 'overlay';
  }
  function pageScroller() { return document.scrollingElement || document.documentElement; }
  function pageScrolls(vertical) {
    const s = pageScroller();
    return vertical ? s.scrollHeight > s.clientHeight : s.scrollWidth > s.clientWidth;
  }
  // scrollerFrom is the nearest container of el (shadow hosts included)
  // that scrolls that way, else the page.
  function scrollerFrom(el, vertical) {
    for (let n = el; n && n !== document.body && n !== document.documentElement;) {
      if (n.nodeType === 1 && canScroll(n, vertical)) return n;
      n = n.parentElement || (n.parentNode && n.parentNode.host) || null;
    }
    return pageScroller();
  }
  // atEnd reports whether s cannot move further in dir.
  function atEnd(s, dir) {
    const page = s === pageScroller();
    const h = page ? innerHeight : s.clientHeight, w = page ? innerWidth : s.clientWidth;
    switch (dir) {
      case 'up': case 'top': return s.scrollTop <= 0;
      case 'down': case 'bottom': return s.scrollTop + h >= s.scrollHeight - 1;
      case 'left': return s.scrollLeft <= 0;
      case 'right': return s.scrollLeft + w >= s.scrollWidth - 1;
    }
    return true;
  }
  // scrollPlan picks what a scroll moves: the container of the target (h),
  // else what is under the centre of the viewport (the page when nothing
  // there scrolls; then the largest container when the page itself cannot
  // scroll that way). It reports how far (dx, dy) and, when a user's mouse
  // wheel at a point of the container's visible box would scroll exactly
  // that container, the point (state 'wheel'); else scrollScript moves it.
  function scrollPlan(h, dir, amount) {
    const vertical = dir === 'up' || dir === 'down' || dir === 'top' || dir === 'bottom';
    let s;
    if (h) {
      const el = lookup(h);
      if (!el) return { state: 'stale' };
      s = scrollerFrom(el, vertical);
    } else {
      const at = pointed(innerWidth / 2, innerHeight / 2);
      s = at ? scrollerFrom(at, vertical) : pageScroller();
      if (s === pageScroller() && !pageScrolls(vertical)) {
        // An app-like page scrolls a container, not the document: use the
        // largest visible container that can scroll that way.
        let best = null, area = 0;
        for (const e of document.querySelectorAll('*')) {
          if (!canScroll(e, vertical)) continue;
          const a = e.clientWidth * e.clientHeight;
          if (a > area) { area = a; best = e; }
        }
        if (best) s = best;
      }
    }
    measure();
    const page = s === pageScroller();
    const w = page ? VW : s.clientWidth, hh = page ? VH : s.clientHeight;
    let dx = 0, dy = 0;
    switch (dir) {
      case 'up': dy = -hh * amount; break;
      case 'down': dy = hh * amount; break;
      case 'left': dx = -w * amount; break;
      case 'right': dx = w * amount; break;
      case 'top': dy = -s.scrollTop; break;
      case 'bottom': dy = s.scrollHeight - s.scrollTop; break;
    }
    A.scrolling = { s, dir, page, dx, dy, before: [s.scrollLeft, s.scrollTop] };
    let box = [0, 0, VW, VH];
    if (!page) {
      const r = s.getBoundingClientRect();
      const x1 = r.left + s.clientLeft, y1 = r.top + s.clientTop;
      box = clipBox(clipBox([x1, y1, x1 + s.clientWidth, y1 + s.clientHeight], [0, 0, VW, VH]), clipOf(s));
    }
    if (!box) return { state: 'script' };
    const x = (box[0] + box[2]) / 2, y = (box[1] + box[3]) / 2;
    const hit = pointed(x, y);
    if (!hit || scrollerFrom(hit, vertical) !== s) return { state: 'script' };
    return { state: 'wheel', x: x, y: y, dx: dx, dy: dy };
  }
  // pointed is the innermost element at (x, y), through open shadow roots.
  function pointed(x, y) {
    let at = document.elementFromPoint(x, y);
    while (at && at.shadowRoot) {
      const inner = at.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === at) break;
      at = inner;
    }
    return at;
  }
  // scrollScript moves the planned container itself (no wheel reaches it).
  function scrollScript() {
    const p = A.scrolling;
    if (!p) return { state: 'done' };
    p.s.scrollBy({ left: p.dx, top: p.dy, behavior: 'instant' });
    return { state: 'done' };
  }
  // scrollResult waits until the planned container stopped moving (a wheel
  // scrolls in the frames after it) and reports how far it moved and
  // whether it reached its end.
  function scrollResult() {
    const p = A.scrolling;
    A.scrolling = null;
    if (!p) return { state: 'done' };
    const s = p.s;
    const at = () => [s.scrollLeft, s.scrollTop];
    const report = () => {
      const dist = Math.abs(s.scrollLeft - p.before[0]) + Math.abs(s.scrollTop - p.before[1]);
      return { state: 'done', moved: dist > 0, distance: Math.round(dist), container: p.page ? 'the page' : nameOf(s), end: atEnd(s, p.dir) };
    };
    return new Promise(resolve => {
      let last = at(), still = 0, frames = 0;
      const tick = () => {
        const now = at();
        frames++;
        if (now[0] === last[0] && now[1] === last[1]) still++; else { still = 0; last = now; }
        const moved = now[0] !== p.before[0] || now[1] !== p.before[1];
        // Still for two frames once it moved, or for six if it does not
        // (a page that takes the wheel itself); 90 frames at most.
        if ((moved && still >= 2) || still >= 6 || frames >= 90) resolve(report());
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }
  // dragWatch starts to note a native drag the page lets begin (dragstart
  // not cancelled by the page); dragStarted reports whether one began since.
  function dragWatch() {
    A.dragEv = null;
    if (!A.dragHooked) {
      A.dragHooked = true;
      addEventListener('dragstart', e => { if (e.isTrusted) A.dragEv = e; }, true);
    }
    return true;
  }
  function dragStarted() {
    const e = A.dragEv;
    A.dragEv = null;
    return !!e && !e.defaultPrevented;
  }
  function attrs(h) {
    const el = lookup(h);
    if (!el) return { state: 'stale' };
    const a = {};
    for (const at of el.attributes) a[at.name] = at.value;
    return { state: 'done', attrs: a };
  }
  // deepActive is the focused element of the page: inside open shadow
  // roots and same-origin frames.
  function deepActive() {
    let el = document.activeElement;
    for (;;) {
      const inner = el && (el.shadowRoot ? el.shadowRoot.activeElement : isFrame(el) ? (frameDoc(el) || {}).activeElement : null);
      if (!inner) return el;
      el = inner;
    }
  }
  function blur() {
    const el = deepActive();
    if (el && el !== document.body) el.blur();
    return { state: 'done' };
  }
  function active() {
    const el = deepActive();
    if (!el || el === document.body || el === document.documentElement) return { state: 'none' };
    return { state: 'ok', handle: handle(el) };
  }
  // node is the element of a handle (null: gone), for a caller that asks
  // Chromium about it by reference (DOM, Accessibility).
  function node(h) { return lookup(h); }
  return { snapshot, node, target, disarm, pressed, fillStart, fillEnd, focus, scrollPlan, scrollScript, scrollResult, dragWatch, dragStarted, attrs, blur, active, token: () => A.tok };
})()
