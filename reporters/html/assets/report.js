// adtest HTML report. The data is the JSON in #report-data; everything is
// built with textContent (never innerHTML), so no text of a test can become
// markup. State lives in the location hash: #s=failed&q=login for the list,
// #t=t3&a=2 for attempt 2 of test t3, #v=slowest / #v=timeline for the views.
(function () {
  'use strict';
  // A failure of the page itself is shown, not left to a blank screen.
  window.addEventListener('error', ev => {
    const b = document.createElement('p');
    b.id = 'page-error';
    b.className = 'card error';
    b.textContent = 'The report page hit an error: ' + (ev.message || 'a resource did not load');
    document.body.prepend(b);
  });
  const R = JSON.parse(document.getElementById('report-data').textContent);
  const byId = new Map(R.tests.map(t => [t.id, t]));
  const STATUSES = [
    ['all', 'All'], ['failed', 'Failed'], ['flaky', 'Flaky'], ['timedOut', 'Timed out'],
    ['passed', 'Passed'], ['skipped', 'Skipped'], ['notRun', 'Not run'],
  ];
  const LABEL = Object.fromEntries(STATUSES);
  LABEL.all = 'All';

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    if (attrs) for (const k in attrs) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of kids) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  function dur(ms) {
    if (ms === undefined || ms === null) return '';
    if (ms >= 60000) return Math.floor(ms / 60000) + 'm ' + Math.round((ms % 60000) / 1000) + 's';
    if (ms >= 10000) return (ms / 1000).toFixed(1) + 's';
    if (ms >= 1000) return (ms / 1000).toFixed(2) + 's';
    return ms + 'ms';
  }
  function badge(status) { return el('span', { class: 'badge s-' + status, text: LABEL[status] || status }); }
  function lastError(t) {
    for (let i = t.attempts.length - 1; i >= 0; i--) if (t.attempts[i].error) return t.attempts[i].error;
    return null;
  }

  // --- header -----------------------------------------------------------
  function summary() {
    const s = R.stats, parts = [];
    parts.push(s.total + (s.total === 1 ? ' test' : ' tests'));
    parts.push('took ' + dur(R.durationMs));
    if (R.platforms.length) parts.push('platform ' + R.platforms.join(', '));
    if (R.shards.length) parts.push((R.shards.length === 1 ? 'shard ' : 'shards ') + R.shards.join(', '));
    if (R.workers > 1) parts.push(R.workers + ' workers');
    if (R.startedAt) parts.push('started ' + new Date(R.startedAt).toLocaleString());
    if (R.interrupted) parts.push('INTERRUPTED: unfinished tests are "not run"');
    document.getElementById('run-summary').textContent = parts.join(' · ');
  }

  // --- state ------------------------------------------------------------
  function state() {
    const p = new URLSearchParams(location.hash.slice(1));
    return { s: p.get('s') || 'all', q: p.get('q') || '', t: p.get('t') || '', a: +(p.get('a') || 0), v: p.get('v') || '' };
  }
  function go(st) {
    const p = new URLSearchParams();
    if (st.t) { p.set('t', st.t); if (st.a) p.set('a', st.a); }
    else {
      if (st.s && st.s !== 'all') p.set('s', st.s);
      if (st.q) p.set('q', st.q);
      if (st.v) p.set('v', st.v);
    }
    const h = p.toString();
    if (('#' + h) !== location.hash && !(h === '' && location.hash === '')) location.hash = h;
    else render();
  }

  // --- filters and list -------------------------------------------------
  const filterButtons = {};
  function filters() {
    const box = document.getElementById('filters');
    for (const [key, label] of STATUSES) {
      const n = key === 'all' ? R.stats.total : (R.stats[key] || 0);
      if (key === 'notRun' && !n) continue;
      const b = el('button', {
        id: 'filter-' + key, type: 'button', 'aria-pressed': 'false',
        onclick: () => { const st = state(); go({ s: key, q: st.q }); },
      }, label, ' ', el('span', { class: 'count', text: String(n) }));
      filterButtons[key] = b;
      box.append(b);
    }
  }
  const rows = [];
  function list() {
    const ul = document.getElementById('test-list');
    const frag = document.createDocumentFragment();
    for (const t of R.tests) {
      const e = lastError(t);
      const sub = el('div', null, el('div', { class: 'name', text: t.name }),
        el('div', { class: 'file', text: t.file + (e && e.line ? ':' + e.line : '') }),
        e && t.status !== 'passed' ? el('div', { class: 'rowerr', text: e.message.split('\n')[0] }) : null);
      const extra = t.attempts.length > 1 ? t.attempts.length + ' attempts' : (t.reason || '');
      const li = el('li', null, el('a', { id: 'row-' + t.id, href: '#t=' + t.id },
        badge(t.status), sub, el('span', { class: 'meta', text: extra }), el('span', { class: 'dur', text: dur(t.durationMs) })));
      rows.push({ li, t, hay: (t.name + ' ' + t.file).toLowerCase() });
      frag.append(li);
    }
    ul.append(frag);
    const search = document.getElementById('search');
    search.addEventListener('input', () => {
      const st = state();
      // Typing replaces the history entry instead of adding one per key.
      const p = new URLSearchParams();
      if (st.s !== 'all') p.set('s', st.s);
      if (search.value) p.set('q', search.value);
      history.replaceState(null, '', '#' + p.toString());
      render();
    });
  }
  function matches(t, st) {
    if (st.s !== 'all' && t.status !== st.s) return false;
    return true;
  }
  function applyList(st) {
    const words = st.q.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const r of rows) {
      const ok = matches(r.t, st) && words.every(w => r.hay.includes(w));
      r.li.hidden = !ok;
      if (ok) shown++;
    }
    for (const k in filterButtons) filterButtons[k].setAttribute('aria-pressed', String(k === st.s));
    const search = document.getElementById('search');
    if (search.value !== st.q && document.activeElement !== search) search.value = st.q;
    document.getElementById('shown').textContent = shown === R.tests.length
      ? 'Showing all ' + shown + ' tests'
      : 'Showing ' + shown + ' of ' + R.tests.length + ' tests';
    let empty = document.getElementById('no-match');
    if (!shown && !empty) {
      empty = el('li', { id: 'no-match', class: 'empty', text: 'No test matches the filter.' });
      document.getElementById('test-list').append(empty);
    } else if (shown && empty) empty.remove();
  }

  // --- slowest and timeline --------------------------------------------
  function slowest() {
    const ol = document.getElementById('slowest-list');
    const ts = R.tests.filter(t => t.attempts.length).sort((a, b) => b.durationMs - a.durationMs).slice(0, 50);
    const top = ts.length ? Math.max(ts[0].durationMs, 1) : 1;
    for (const t of ts) {
      const bar = el('div', { class: 'bar' }, el('span', { style: 'width:' + (100 * t.durationMs / top).toFixed(1) + '%' }));
      ol.append(el('li', null, el('a', { href: '#t=' + t.id, class: 'barrow' },
        el('span', null, badge(t.status), ' ', t.name), bar, el('span', { class: 'dur', text: dur(t.durationMs) }))));
    }
    if (!ts.length) ol.append(el('li', { class: 'empty', text: 'No test ran.' }));
  }
  function timeline() {
    const box = document.getElementById('timeline');
    const lanes = new Map();
    let end = Math.max(R.durationMs, 1);
    for (const t of R.tests) t.attempts.forEach((a, i) => {
      if (a.startMs < 0) return;
      const key = (a.shard ? 'shard ' + a.shard + ' · ' : '') + 'worker ' + a.worker + (a.device ? ' (' + a.device + ')' : '');
      if (!lanes.has(key)) lanes.set(key, []);
      lanes.get(key).push({ t, a, i });
      end = Math.max(end, a.startMs + a.durationMs);
    });
    if (!lanes.size) { box.append(el('p', { class: 'empty', text: 'No attempt start times in this result.' })); return; }
    box.append(el('p', { class: 'meta', text: 'Each bar is one attempt, placed by when it started; the track spans ' + dur(end) + '.' }));
    for (const key of [...lanes.keys()].sort()) {
      const track = el('div', { class: 'track' });
      for (const { t, a, i } of lanes.get(key)) {
        track.append(el('a', {
          class: 'seg s-' + a.status, href: '#t=' + t.id + '&a=' + (i + 1),
          title: t.name + ' · attempt ' + (i + 1) + ' · ' + a.status + ' · ' + dur(a.durationMs),
          'aria-label': t.name + ' attempt ' + (i + 1),
          style: 'left:' + (100 * a.startMs / end).toFixed(2) + '%;width:' + (100 * a.durationMs / end).toFixed(2) + '%',
        }));
      }
      box.append(el('div', { class: 'lane' }, el('span', { class: 'meta', text: key }), track));
    }
  }

  // --- test page --------------------------------------------------------
  function testView(st) {
    const view = document.getElementById('test-view');
    view.replaceChildren();
    const t = byId.get(st.t);
    if (!t) { view.append(el('p', { class: 'empty', text: 'No test ' + st.t + ' in this report.' })); return; }
    view.append(el('a', { class: 'back', href: '#', text: '← All tests' }));
    view.append(el('h2', { id: 'test-title' }, badge(t.status), ' ', t.name));
    view.append(el('p', { class: 'meta' }, el('code', { text: t.file }), ' · ' + (t.platform || 'no platform') + ' · ' + dur(t.durationMs)
      + (t.attempts.length > 1 ? ' · ' + t.attempts.length + ' attempts' : '')));
    if (t.reason) view.append(el('p', { class: 'meta', text: LABEL[t.status] + ': ' + t.reason }));
    if (!t.attempts.length) return;
    let cur = st.a >= 1 && st.a <= t.attempts.length ? st.a : t.attempts.length;
    const tabs = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Attempts' });
    t.attempts.forEach((a, i) => {
      const name = i === 0 ? 'Run' : 'Retry #' + i;
      tabs.append(el('button', {
        id: 'attempt-' + (i + 1), type: 'button', role: 'tab', 'aria-selected': String(i + 1 === cur),
        onclick: () => go({ t: t.id, a: i + 1 }),
      }, name + ' · ' + (LABEL[a.status] || a.status) + ' · ' + dur(a.durationMs)));
    });
    view.append(tabs);
    view.append(attemptPanel(t, t.attempts[cur - 1]));
  }

  function attemptPanel(t, a) {
    const p = el('div', { role: 'tabpanel', id: 'attempt-panel' });
    const where = ['worker ' + a.worker];
    if (a.device) where.push('device ' + a.device);
    if (a.shard) where.push('shard ' + a.shard);
    p.append(el('p', { class: 'meta', text: (LABEL[a.status] || a.status) + ' in ' + dur(a.durationMs) + ' · ' + where.join(' · ') }));
    const e = a.error;
    const failing = e && e.step ? e.step : 0;
    if (e) {
      const card = el('div', { class: 'card error', id: 'error' });
      card.append(el('div', { class: 'msg', id: 'error-message', text: e.message }));
      const step = failing ? a.steps.find(s => s.step === failing) : null;
      if (e.line) {
        let at = 'Failed at ' + t.file + ':' + e.line;
        if (failing) at += ', step ' + failing;
        if (step && step.action) at += ': ' + step.action;
        else if (e.command) at += ' (' + e.command + ')';
        card.append(el('p', { id: 'failing-step', text: at }));
      }
      // Every text in its own element, so that each is a node of its own to
      // a reader (and to a snapshot).
      card.append(el('p', { class: 'kv' }, el('span', { text: 'reason ' }), el('code', { id: 'error-reason', text: e.reason || '-' }),
        el('span', { text: ' · code ' }), el('code', { id: 'error-code', text: e.code })));
      if (e.hint) card.append(el('p', { id: 'error-hint' }, el('strong', { text: 'Hint: ' }), e.hint));
      if (a.source && a.source.length) {
        const pre = el('pre', { class: 'source', id: 'source', 'aria-label': 'Source around line ' + e.line });
        for (const l of a.source) pre.append(el('div', { class: l.n === e.line ? 'hit' : '' }, el('span', { class: 'n', text: String(l.n) }), el('span', { text: l.text || ' ' })));
        card.append(pre);
      }
      const div = e.details && e.details.divergence;
      if (div) card.append(divergence(div));
      const rest = Object.assign({}, e.details || {});
      delete rest.divergence;
      if (Object.keys(rest).length) card.append(el('details', null, el('summary', { text: 'Error details' }), el('pre', { text: JSON.stringify(rest, null, 2) })));
      p.append(card);
    }
    if (a.repair && window.adtestRepair) p.append(window.adtestRepair(a.repair, el));
    p.append(el('h3', { text: 'Steps' }));
    if (!a.steps.length) p.append(el('p', { class: 'meta', text: 'No step ran.' }));
    else {
      const tb = el('tbody');
      for (const s of a.steps) {
        const bad = s.step === failing || s.status === 'failed';
        tb.append(el('tr', { class: bad ? 'failing' : '', id: bad && s.step === failing ? 'step-failing' : null },
          el('td', { text: String(s.step) }), el('td', { text: s.line ? 'line ' + s.line : '' }),
          el('td', { class: 'action', text: s.action || s.command }), el('td', null, badge(s.status)),
          el('td', { class: 'dur', text: dur(s.durationMs) }), el('td', { class: 'warn', text: s.warning || '' })));
      }
      p.append(el('table', { class: 'steps', id: 'steps' },
        el('thead', null, el('tr', null, ...['#', 'Line', 'Action', 'Status', 'Duration', ''].map(h => el('th', { text: h })))), tb));
    }
    if (a.trace && window.adtestTrace) p.append(window.adtestTrace(a.trace, { el, dur, badge }));
    if (a.screenshot || a.screenshotPath) {
      p.append(el('h3', { text: 'Screenshot' }));
      if (a.screenshot) {
        const status = el('span', { id: 'screenshot-status', text: 'Screenshot loading…' });
        const img = el('img', { src: a.screenshot, alt: 'Failure screenshot of ' + t.name, id: 'screenshot' });
        img.addEventListener('load', () => { status.textContent = 'Screenshot at the failure (' + img.naturalWidth + '×' + img.naturalHeight + ')'; });
        img.addEventListener('error', () => { status.textContent = 'Screenshot did not load: ' + a.screenshot; });
        p.append(el('figure', null, img, el('figcaption', null, status)));
      } else p.append(el('p', { class: 'meta', text: 'Screenshot not in this report (was at ' + a.screenshotPath + ')' }));
    }
    if (a.snapshot) p.append(el('details', { id: 'snapshot' }, el('summary', { text: 'Last snapshot' }), el('pre', { text: a.snapshot })));
    if (a.log) p.append(el('details', { id: 'log' }, el('summary', { text: 'Log tail' }), el('pre', { text: a.log })));
    if (a.warnings && a.warnings.length) {
      p.append(el('h3', { text: 'Warnings' }));
      p.append(el('ul', null, ...a.warnings.map(w => el('li', { class: 'warn', text: w }))));
    }
    if (a.artifactsDir) p.append(el('p', { class: 'meta' }, 'Artifacts: ', el('code', { text: a.artifactsDir })));
    return p;
  }

  function divergence(d) {
    const box = el('div', { id: 'divergence' });
    box.append(el('h3', { text: 'Divergence: ' + (d.kind || 'unknown') }));
    if (d.action) box.append(el('p', { class: 'kv' }, 'action ', el('code', { text: d.action })));
    if (d.repairHint) box.append(el('p', { class: 'kv' }, 'repair ', el('code', { text: d.repairHint })));
    const sugg = d.suggestions || [];
    if (sugg.length) {
      box.append(el('p', { text: 'Suggestions:' }));
      box.append(el('ol', { id: 'suggestions' }, ...sugg.map(s => el('li', null, el('code', { text: s.selector }), s.basis ? ' (' + s.basis + ')' : ''))));
    } else box.append(el('p', { class: 'meta', text: 'No selector suggestion.' }));
    const refs = d.screen && d.screen.refs;
    if (refs && refs.length) box.append(el('details', null, el('summary', { text: 'Screen at the divergence (' + refs.length + ' refs)' }),
      el('pre', { text: refs.map(r => r.ref + ' [' + r.role + ']' + (r.label ? ' "' + r.label + '"' : '')).join('\n') })));
    return box;
  }

  // --- routing ----------------------------------------------------------
  const views = {
    list: document.getElementById('list-view'),
    slowest: document.getElementById('slowest-view'),
    timeline: document.getElementById('timeline-view'),
    test: document.getElementById('test-view'),
  };
  function render() {
    const st = state();
    let which = st.t ? 'test' : (st.v === 'slowest' || st.v === 'timeline' ? st.v : 'list');
    for (const k in views) views[k].hidden = k !== which;
    document.getElementById('view-tests').setAttribute('aria-selected', String(which === 'list'));
    document.getElementById('view-slowest').setAttribute('aria-selected', String(which === 'slowest'));
    document.getElementById('view-timeline').setAttribute('aria-selected', String(which === 'timeline'));
    if (which === 'test') testView(st);
    else if (which === 'list') applyList(st);
    else if (!built[which]) { built[which] = true; (which === 'slowest' ? slowest : timeline)(); }
  }
  document.getElementById('view-tests').addEventListener('click', () => go({ s: state().s, q: state().q }));
  document.getElementById('view-slowest').addEventListener('click', () => go({ v: 'slowest' }));
  document.getElementById('view-timeline').addEventListener('click', () => go({ v: 'timeline' }));
  window.addEventListener('hashchange', render);
  // "/" jumps to the search box, as in many report pages.
  document.addEventListener('keydown', ev => {
    const search = document.getElementById('search');
    if (ev.key === '/' && document.activeElement !== search) { ev.preventDefault(); search.focus(); }
  });

  // The slowest and timeline views are built when first shown.
  const built = {};
  summary();
  filters();
  list();
  render();
})();
