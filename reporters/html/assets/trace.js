// adtest HTML report: the trace viewer of an attempt. report.js calls
// adtestTrace(trace, helpers) for an attempt with a trace and appends what
// it returns: a filmstrip of the steps and a step viewer (the pictures
// before and after with the target's box, the tree with the target marked,
// console and network). Left/Right arrows (and the Previous/Next buttons)
// move between steps. Built with textContent only, like report.js.
window.adtestTrace = (function () {
  'use strict';
  let current = null; // the viewer on the page: { root, show, at }
  document.addEventListener('keydown', ev => {
    if (!current || !current.root.isConnected) return;
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    if (ev.key === 'ArrowRight') { ev.preventDefault(); current.show(current.at + 1); }
    else if (ev.key === 'ArrowLeft') { ev.preventDefault(); current.show(current.at - 1); }
  });

  return function (trace, h) {
    const el = h.el, dur = h.dur;
    const steps = trace.steps || [];
    const root = el('section', { class: 'trace', id: 'trace-viewer', 'aria-label': 'Trace' });
    root.append(el('h3', { text: 'Trace (' + steps.length + (steps.length === 1 ? ' step)' : ' steps)') }));
    if (!steps.length) { root.append(el('p', { class: 'meta', text: 'The trace has no step.' })); return root; }
    const strip = el('div', { class: 'filmstrip', id: 'filmstrip', role: 'tablist', 'aria-label': 'Steps of the trace' });
    const thumbs = steps.map((s, i) => {
      const pic = s.after ? el('img', { src: s.after, alt: '', loading: 'lazy' }) : el('span', { class: 'noimg', text: '—' });
      const b = el('button', { type: 'button', role: 'tab', id: 'trace-thumb-' + s.step, class: s.status === 'failed' ? 'failed' : '',
        'aria-selected': 'false', title: s.action, onclick: () => show(i) }, pic, 'step ' + s.step);
      strip.append(b);
      return b;
    });
    root.append(strip);
    const view = el('div', { class: 'card', id: 'trace-step' });
    root.append(view);
    const me = { root, show, at: 0 };
    current = me;

    function figure(id, src, label, s) {
      const status = el('figcaption', { id: id + '-status', text: src ? label + ' loading…' : label + ': no picture' });
      if (!src) return el('figure', null, status);
      const img = el('img', { src, id, alt: label + ' step ' + s.step });
      img.addEventListener('load', () => { status.textContent = label + ' (' + img.naturalWidth + '×' + img.naturalHeight + ')'; });
      img.addEventListener('error', () => { status.textContent = label + ' did not load: ' + src; });
      const shot = el('div', { class: 'shot' }, img);
      const vp = s.viewport, tg = s.target;
      if (vp && vp.width > 0 && vp.height > 0 && tg) {
        const pct = (v, of) => (100 * v / of) + '%';
        if (tg.rect && tg.rect.width > 0) {
          const box = el('div', { class: 'box', id: id + '-box' });
          box.style.left = pct(tg.rect.x, vp.width); box.style.top = pct(tg.rect.y, vp.height);
          box.style.width = pct(tg.rect.width, vp.width); box.style.height = pct(tg.rect.height, vp.height);
          shot.append(box);
        }
        if (tg.point) {
          const pt = el('div', { class: 'pt' });
          pt.style.left = pct(tg.point.x, vp.width); pt.style.top = pct(tg.point.y, vp.height);
          shot.append(pt);
        }
      }
      return el('figure', null, shot, status);
    }

    function tree(s) {
      const tg = s.target;
      const nodes = tg && tg.tree >= 0 && trace.trees ? trace.trees[tg.tree] : null;
      if (!nodes) return null;
      const pre = el('pre', { id: 'trace-tree' });
      nodes.forEach((n, i) => {
        let line = '  '.repeat(n.depth || 0) + n.role;
        if (n.label) line += ' "' + n.label + '"';
        if (n.id) line += ' id=' + n.id;
        if (n.value) line += ' value="' + n.value + '"';
        if (n.text && n.text !== n.label) line += ' text="' + n.text + '"';
        const hit = i === tg.node;
        pre.append(el('div', { class: hit ? 'hit' : '', id: hit ? 'trace-target-node' : null, text: line }));
      });
      return el('details', { open: true }, el('summary', { text: 'Tree the target was resolved in (' + nodes.length + ' nodes)' }), pre);
    }

    function events(s) {
      const evs = s.events || [];
      const logs = evs.filter(e => e.kind !== 'request'), reqs = evs.filter(e => e.kind === 'request');
      const out = [];
      out.push(el('h4', { text: 'Console (' + logs.length + ')' }));
      const ul = el('ul', { id: 'trace-console' });
      for (const e of logs) ul.append(el('li', { class: 'lvl-' + (e.kind === 'pageerror' ? 'pageerror' : e.level || '') },
        el('code', { text: (e.kind === 'pageerror' ? 'page error' : e.kind + '.' + (e.level || 'log')) + ': ' }), e.text || ''));
      if (!logs.length) ul.append(el('li', { class: 'meta', text: 'none' }));
      out.push(ul);
      out.push(el('h4', { text: 'Network (' + reqs.length + ')' }));
      if (reqs.length) {
        const tb = el('tbody', { id: 'trace-network' });
        for (const e of reqs) tb.append(el('tr', null, el('td', { text: e.method || '' }), el('td', { class: 'url', text: e.url || '' }),
          el('td', { text: e.pending ? 'pending' : e.failed ? 'failed: ' + e.failed : String(e.status || '') }),
          el('td', { class: 'dur', text: e.pending ? '' : dur(e.durationMs || 0) })));
        out.push(el('table', null, el('thead', null, el('tr', null, ...['Method', 'URL', 'Status', 'Time'].map(x => el('th', { text: x })))), tb));
      } else out.push(el('p', { class: 'meta', text: 'none' }));
      return out;
    }

    function show(i) {
      if (i < 0 || i >= steps.length) return;
      me.at = i;
      current = me;
      const s = steps[i];
      thumbs.forEach((b, k) => b.setAttribute('aria-selected', String(k === i)));
      thumbs[i].scrollIntoView({ block: 'nearest', inline: 'nearest' });
      view.replaceChildren();
      view.append(el('div', { class: 'trace-nav' },
        el('button', { type: 'button', id: 'trace-prev', disabled: i === 0, onclick: () => show(i - 1), 'aria-label': 'Previous step' }, '←'),
        el('button', { type: 'button', id: 'trace-next', disabled: i === steps.length - 1, onclick: () => show(i + 1), 'aria-label': 'Next step' }, '→'),
        el('strong', { id: 'trace-step-title', text: 'Step ' + s.step + ' of ' + steps.length + ': ' + s.action }),
        h.badge(s.status)));
      view.append(el('p', { class: 'kv', id: 'trace-timing', text: 'line ' + s.line + ' · ' + dur(s.durationMs) + ' (resolve ' + dur(s.resolveMs || 0)
        + ', act ' + dur(s.actMs || 0) + ', settle ' + dur(s.settleMs || 0) + ')' + (s.target && s.target.point ? ' · at ' + Math.round(s.target.point.x) + ',' + Math.round(s.target.point.y) : '') }));
      if (s.error) view.append(el('p', { class: 'lvl-error', id: 'trace-error', text: s.error.message }));
      view.append(el('div', { class: 'shots' }, figure('trace-before', s.before, 'Before', s), figure('trace-after', s.after, 'After', s)));
      const tr = tree(s);
      if (tr) view.append(tr);
      view.append(...events(s));
    }

    let first = steps.findIndex(s => s.status === 'failed');
    show(first >= 0 ? first : 0);
    if (trace.warnings && trace.warnings.length) root.append(el('details', null, el('summary', { text: 'Trace warnings' }),
      el('ul', null, ...trace.warnings.map(w => el('li', { class: 'warn', text: w })))));
    return root;
  };
})();
