// adtest HTML report: the "Suggested repair" panel of an attempt that ran
// with --repair (its repair record: status, the patch's path and text, the
// changed lines). Built with textContent only, like the rest of the page;
// report.js calls window.adtestRepair(repair, el) for an attempt that has one.
(function () {
  'use strict';
  function copyText(text) {
    // The clipboard API needs a secure context; file:// pages may lack it,
    // so the textarea and execCommand route is the fallback.
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise((resolve, reject) => {
      const ta = document.createElement('textarea');
      ta.value = text;
      ta.setAttribute('readonly', '');
      ta.style.position = 'fixed';
      ta.style.left = '-9999px';
      document.body.append(ta);
      ta.select();
      const ok = document.execCommand('copy');
      ta.remove();
      if (ok) resolve(); else reject(new Error('copy refused'));
    });
  }
  window.adtestRepair = function (r, el) {
    const box = el('div', { class: 'card repair', id: 'repair', role: 'region', 'aria-label': 'Suggested repair' });
    if (r.status !== 'repaired') {
      box.append(el('h3', { text: 'Repair refused' }));
      box.append(el('p', { id: 'repair-refusal', text: r.refusal || 'no repair' }));
      return box;
    }
    box.append(el('h3', { text: r.applied ? 'Repair applied' : 'Suggested repair' }));
    box.append(el('p', { class: 'meta', id: 'repair-status', text: (r.verified ? 'Verified: the repaired script passed a re-run from the start. ' : '') +
      'The test stays failed: the script as written is broken.' }));
    (r.changes || []).forEach((c, i) => {
      box.append(el('p', { class: 'kv repair-change' }, 'line ' + c.line + ' · basis ', el('code', { text: c.basis })));
      if (c.caution) box.append(el('p', { class: 'kv repair-caution', id: 'repair-caution-' + (i + 1) },
        'caution: stands on the ' + (c.stoodOn || 'command contract') + ', not on the old element\'s identity (no target-v1 annotation): read it before applying'));
      if (c.oldElement || c.newElement) box.append(el('p', { class: 'kv repair-evidence' },
        'was ', el('code', { id: 'repair-old-' + (i + 1), text: c.oldElement || '?' }),
        ' · now ', el('code', { id: 'repair-new-' + (i + 1), text: c.newElement || '?' })));
    });
    const pre = el('pre', { class: 'diff', id: 'repair-diff', 'aria-label': 'Patch' });
    for (const l of (r.diff || '').replace(/\n$/, '').split('\n')) {
      let cls = '';
      if (l.startsWith('+++') || l.startsWith('---')) cls = 'hdr';
      else if (l.startsWith('+')) cls = 'add';
      else if (l.startsWith('-')) cls = 'del';
      else if (l.startsWith('@@')) cls = 'hunk';
      pre.append(el('div', { class: cls, text: l || ' ' }));
    }
    box.append(pre);
    const status = el('span', { id: 'repair-copy-status', class: 'meta', role: 'status', text: '' });
    const btn = el('button', { type: 'button', id: 'repair-copy', onclick: () => {
      copyText(r.diff || '').then(() => { status.textContent = 'Patch copied'; },
        () => { status.textContent = 'Copy refused by the browser: select the patch and copy it'; });
    } }, 'Copy patch');
    box.append(el('p', null, btn, ' ', status));
    const shots = [['before', r.before, 'Before: the screen the step diverged on'], ['after', r.after, 'After: the screen the repaired script ended on']]
      .filter(x => x[1]).map(x => el('figure', null, el('img', { src: x[1], id: 'repair-' + x[0], alt: x[2] }), el('figcaption', { text: x[2] })));
    if (shots.length) box.append(el('div', { class: 'repair-shots' }, ...shots));
    // The command is adtest's own, quoted for a shell (never built here).
    if (r.applyCommand) box.append(el('p', { class: 'meta' }, 'Review it, then from the directory the run started in: ', el('code', { id: 'repair-apply', text: r.applyCommand })));
    else if (r.patch) box.append(el('p', { class: 'meta' }, 'Patch: ', el('code', { id: 'repair-patch', text: r.patch })));
    if (r.record) box.append(el('p', { class: 'meta' }, 'Evidence (old and new element, the screen around it): ', el('code', { text: r.record })));
    return box;
  };
})();
