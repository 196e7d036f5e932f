// The Flotilla dashboard: Preact components written with htm (tagged templates, no build step). Every view reads the
// JSON API under /ui/api/ (the CLI's -o json shapes) and reloads when the event stream says a branch moved. Text is
// always rendered as text (Preact escapes it); nothing here writes anywhere.
import { h, render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { humanDuration } from './shared/humanDuration.mjs';

const html = htm.bind(h);
const PAGE = 50;
/** Cluster columns shown at once: 50 rows × 100 clusters is 5,000 cells to lay out; 20 at a time keep it quick. */
const COLUMNS = 20;

// ---- data ----------------------------------------------------------------------------------------------------

async function getJson(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

/** The heads the server last announced; views refetch when they change. */
function useHeads() {
  const [heads, setHeads] = useState(null);
  const [live, setLive] = useState('connecting');
  useEffect(() => {
    const events = new EventSource('/ui/api/events');
    events.addEventListener('heads', (e) => setHeads(JSON.parse(e.data)));
    events.onopen = () => setLive('live');
    events.onerror = () => setLive('reconnecting');
    return () => events.close();
  }, []);
  return { heads, live };
}

/** Fetches `path` now and again whenever the heads move; keeps showing the last answer while a new one loads. */
function useApi(path, heads) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  // The heads the current answer was read at (every answer names them): the stream's first announcement of the same
  // heads, or a move of a branch the answer does not depend on, fetches nothing.
  const answered = useRef({ path: null, heads: null });
  const key = heads ? `${heads.source} ${heads.rendered} ${heads.status}` : '';
  useEffect(() => {
    if (!path) return undefined;
    const a = answered.current;
    if (a.path === path && a.heads && (!heads || sameHeads(a.heads, heads))) return undefined;
    let stale = false;
    setState((s) => ({ ...s, loading: true }));
    getJson(path).then(
      (data) => {
        if (stale) return;
        answered.current = { path, heads: data.heads ?? heads };
        setState({ data, error: null, loading: false });
      },
      (error) => !stale && setState((s) => ({ data: s.data, error: error.message, loading: false })),
    );
    return () => {
      stale = true;
    };
  }, [path, key]);
  return state;
}

function sameHeads(a, b) {
  return a.source === b.source && a.rendered === b.rendered && a.status === b.status;
}

// ---- routing: #/fleet?…, #/object?key=…, #/changes, #/attention, #/plan?base=…&head=… ---------------------------

function parseRoute() {
  const hash = location.hash.replace(/^#/, '') || '/fleet';
  const [path, query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

function useRoute() {
  const [route, setRoute] = useState(parseRoute);
  useEffect(() => {
    const on = () => setRoute(parseRoute());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

function link(path, params = {}) {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== '' && v !== null));
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

const objectLink = (key) => link('/object', { key });

// ---- small pieces ----------------------------------------------------------------------------------------------

const short = (sha) => (sha ? sha.slice(0, 12) : '—');

const MARK = { ok: '✓', bad: '✗', warn: '!', wait: '…', none: '–' };

/** A state as a word and a symbol as well as a colour, so colour is never the only signal. */
function Badge({ tone, children, title }) {
  const mark = MARK[tone] ?? '';
  return html`<span class=${`badge ${tone}`} title=${title ?? ''}><span aria-hidden="true">${mark} </span>${children}</span>`;
}

/** The time now, moved on every second while a view shows ages, so "45s ago" counts as kubectl's AGE would. */
function useNow() {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  return now;
}

/** A moment as kubectl prints an age ("5m30s ago"), the timestamp itself on hover; text that is no time, as it is. */
function Ago({ at }) {
  const now = useNow();
  const t = Date.parse(at);
  if (Number.isNaN(t)) return at;
  return html`<time datetime=${at} title=${at}>${humanDuration(now - t)} ago</time>`;
}

function ErrorNote({ error }) {
  return error ? html`<p class="error" role="alert">Could not load: ${error}</p>` : null;
}

function refLabel(ref) {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

function parseKey(key) {
  // refKey: <apiVersion>/<kind>/<namespace>/<name>, apiVersion holding a slash when it has a group.
  const parts = key.split('/');
  const name = parts.pop();
  const namespace = parts.pop();
  const kind = parts.pop();
  return { apiVersion: parts.join('/'), kind, namespace, name };
}

function Scroll({ label, children }) {
  // A wide table scrolls inside its own region; the region takes focus so a keyboard can scroll it too.
  return html`<div class="scroll" role="region" aria-label=${label} tabindex="0">${children}</div>`;
}

// ---- Fleet -----------------------------------------------------------------------------------------------------

function conditionOf(cluster, type) {
  return (cluster.status?.conditions ?? []).find((c) => c.type === type);
}

/**
 * Cluster rows shown at once: the matrix comes below the table, and 400 clusters put it 14,000 px down the page.
 */
const CLUSTER_ROWS = 20;

function ClustersTable({ clusters: all, applied, heartbeats, firstRow, setFirstRow }) {
  const start = Math.min(firstRow, Math.max(0, all.length - 1));
  const clusters = all.slice(start, start + CLUSTER_ROWS);
  const pager =
    all.length > CLUSTER_ROWS
      ? html`<nav class="pager" aria-label="Cluster rows">
          <button type="button" disabled=${start === 0} onClick=${() => setFirstRow(Math.max(0, start - CLUSTER_ROWS))}>Previous cluster rows</button>
          <span aria-live="polite">${start + 1}–${start + clusters.length} of ${all.length} clusters</span>
          <button type="button" disabled=${start + CLUSTER_ROWS >= all.length} onClick=${() => setFirstRow(start + CLUSTER_ROWS)}>Next cluster rows</button>
        </nav>`
      : null;
  return html`${pager}<${Scroll} label="Clusters">
    <table class="clusters">
      <caption><span>Clusters</span></caption>
      <thead><tr>
        <th scope="col">Name</th><th scope="col">Ready</th><th scope="col">Version</th><th scope="col">Mode</th>
        <th scope="col">Taints</th><th scope="col">Capacity</th><th scope="col">Applied</th><th scope="col">Ready changed</th><th scope="col">Last heartbeat</th>
      </tr></thead>
      <tbody>
        ${clusters.map((c) => {
          const name = c.metadata.name;
          const ready = conditionOf(c, 'Ready');
          const a = applied[name];
          const alloc = c.status?.resourceSummary?.allocatable;
          const taints = c.spec?.taints ?? [];
          return html`<tr key=${name}>
            <th scope="row"><a href=${link('/fleet', { cluster: name })}>${name}</a></th>
            <td>${
              !ready
                ? html`<${Badge} tone="none">Unknown</${Badge}>`
                : ready.status === 'True'
                  ? html`<${Badge} tone="ok">Ready</${Badge}>`
                  : html`<${Badge} tone="bad" title=${ready.message ?? ''}>NotReady</${Badge}> <span class="why">${ready.reason ?? ''}: ${ready.message ?? ''}</span>`
            }</td>
            <td>${c.status?.kubernetesVersion ?? '—'}</td>
            <td>${c.spec?.syncMode ?? 'Push'}</td>
            <td>${taints.length ? taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ') : '—'}</td>
            <td>${alloc ? Object.entries(alloc).map(([k, v]) => `${k} ${v}`).join(', ') : '—'}</td>
            <td>${
              !a
                ? html`<${Badge} tone="none">never</${Badge}>`
                : a.failed > 0
                  ? html`<${Badge} tone="bad">${a.failed} failed</${Badge}>`
                  : a.upToDate
                    ? html`<${Badge} tone="ok">up to date</${Badge}>`
                    : html`<${Badge} tone="wait">not up to date</${Badge}>`
            } <code>${short(a?.renderedCommit)}</code></td>
            <td>${ready?.lastTransitionTime ? html`<${Ago} at=${ready.lastTransitionTime} />` : '—'}</td>
            <td>${heartbeats[name] ? html`<${Ago} at=${heartbeats[name]} />` : (c.spec?.syncMode ?? 'Push') === 'Push' ? 'probed by the reconciler' : '—'}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </${Scroll}>`;
}

/** One cell of the matrix: ready/desired and health on that cluster, or a dash when nothing is placed there. */
function cellOf(item, cluster) {
  if (!item.clusters.includes(cluster)) return null;
  const agg = (item.object.status?.aggregatedStatus ?? []).find((a) => a.clusterName === cluster);
  const placed = item.placement.find((p) => p.name === cluster);
  // Only a kind with replicas has a count: a ConfigMap or Service placed with 0 replicas shows its health alone.
  const hasReplicas = typeof item.object.spec?.replicas === 'number' || (placed?.replicas ?? 0) > 0;
  const desired = hasReplicas ? (placed?.replicas ?? item.object.spec?.replicas) : undefined;
  const ready = agg?.status?.readyReplicas ?? 0;
  const health = agg ? (agg.applied ? agg.health : 'NotApplied') : 'Pending';
  const counts = typeof desired === 'number' ? `${ready}/${desired}` : '';
  const tone = health === 'Healthy' ? 'ok' : health === 'NotApplied' || health === 'Unhealthy' ? 'bad' : 'wait';
  return { counts, health, tone, message: agg?.message ?? '' };
}

function sortState(query, field) {
  const active = (query.sort ?? 'namespace') === field;
  const desc = active && query.order === 'desc';
  return { active, desc, ariaSort: active ? (desc ? 'descending' : 'ascending') : 'none' };
}

function SortButton({ label, field, query, setQuery, announce }) {
  const { active, desc } = sortState(query, field);
  // Under the Name header (a phone) no column's aria-sort tells a screen reader the order: the button says it.
  const said = announce && active ? html`<span class="sr-only">, sorted ${desc ? 'descending' : 'ascending'}</span>` : null;
  return html`<button type="button" class="sort" onClick=${() => setQuery({ ...query, sort: field, order: active && !desc ? 'desc' : '', offset: '' })}>
    ${label} <span aria-hidden="true">${active ? (desc ? '▼' : '▲') : '↕'}</span>${said}
  </button>`;
}

function SortHeader({ label, field, query, setQuery, className }) {
  return html`<th scope="col" class=${className} aria-sort=${sortState(query, field).ariaSort}>
    <${SortButton} label=${label} field=${field} query=${query} setQuery=${setQuery} />
  </th>`;
}

// Keyed by the address's label and name: Back, Forward or a link puts what the address says in the fields, as the
// rows show it, instead of what was typed last.
function Filters({ query, setQuery, workloads }) {
  const [label, setLabel] = useState(query.label ?? '');
  const [name, setName] = useState(query.name ?? '');
  const select = (field, options, title) => html`<label>${title}
    <select value=${query[field] ?? ''} onChange=${(e) => setQuery({ ...query, [field]: e.currentTarget.value, offset: '' })}>
      <option value="">all</option>
      ${options.map((o) => html`<option value=${o} key=${o}>${o || '(cluster-scoped)'}</option>`)}
    </select></label>`;
  return html`<form class="filters" role="search" aria-label="Filter workloads" onSubmit=${(e) => {
    e.preventDefault();
    setQuery({ ...query, label, name, offset: '' });
  }}>
    ${select('namespace', workloads.namespaces, 'Namespace')}
    ${select('kind', workloads.kinds, 'Kind')}
    ${select('cluster', workloads.clusterNames, 'Cluster')}
    <label>Label <input value=${label} placeholder="app=web" onInput=${(e) => setLabel(e.currentTarget.value)} /></label>
    <label>Name <input value=${name} placeholder="contains…" onInput=${(e) => setName(e.currentTarget.value)} /></label>
    <button type="submit">Filter</button>
  </form>`;
}

function Matrix({ workloads, query, setQuery, firstColumn, setFirstColumn }) {
  const names = query.cluster ? [query.cluster] : workloads.clusterNames;
  const start = Math.min(firstColumn, Math.max(0, names.length - 1));
  const columns = names.slice(start, start + COLUMNS);
  const columnPager =
    names.length > COLUMNS
      ? html`<nav class="pager" aria-label="Cluster columns">
          <button type="button" disabled=${start === 0} onClick=${() => setFirstColumn(Math.max(0, start - COLUMNS))}>Previous clusters</button>
          <span aria-live="polite">clusters ${start + 1}–${start + columns.length} of ${names.length}</span>
          <button type="button" disabled=${start + COLUMNS >= names.length} onClick=${() => setFirstColumn(start + COLUMNS)}>Next clusters</button>
        </nav>`
      : null;
  const from = workloads.total === 0 ? 0 : workloads.offset + 1;
  const to = workloads.offset + workloads.items.length;
  const pager = html`<nav class="pager" aria-label="Workload pages">
    <button type="button" disabled=${workloads.offset === 0} onClick=${() => setQuery({ ...query, offset: String(Math.max(0, workloads.offset - workloads.limit)) })}>Previous</button>
    <span aria-live="polite">${from}–${to} of ${workloads.total}</span>
    <button type="button" disabled=${to >= workloads.total} onClick=${() => setQuery({ ...query, offset: String(workloads.offset + workloads.limit) })}>Next</button>
  </nav>`;
  return html`<section aria-labelledby="matrix-title">
    <h2 id="matrix-title">Workloads × clusters</h2>
    <${Filters} key=${`${query.label ?? ''}\n${query.name ?? ''}`} query=${query} setQuery=${setQuery} workloads=${workloads} />
    ${pager}
    ${columnPager}
    <${Scroll} label="Workloads by cluster">
      <table class="matrix">
        <thead><tr>
          <th scope="col" class="name" aria-sort=${sortState(query, 'name').ariaSort}>
            <${SortButton} label="Name" field="name" query=${query} setQuery=${setQuery} />
            <span class="narrow-only">
              <${SortButton} label="Namespace" field="namespace" query=${query} setQuery=${setQuery} announce />
              <${SortButton} label="Kind" field="kind" query=${query} setQuery=${setQuery} announce />
            </span>
          </th>
          <${SortHeader} label="Namespace" field="namespace" query=${query} setQuery=${setQuery} className="wide-only" />
          <${SortHeader} label="Kind" field="kind" query=${query} setQuery=${setQuery} className="wide-only" />
          <th scope="col">Ready</th>
          ${columns.map((c) => html`<th scope="col" key=${c}>${c}</th>`)}
        </tr></thead>
        <tbody>
          ${workloads.items.map((item) => {
            const ref = parseKey(item.key);
            const readyAt = item.columns.headers.indexOf('READY');
            return html`<tr key=${item.key}>
              <th scope="row" class="name">
                <a href=${objectLink(item.key)}>${ref.name}</a>
                <span class="where">${ref.namespace ? `${ref.namespace} · ${ref.kind}` : ref.kind}</span>
              </th>
              <td class="wide-only">${ref.namespace}</td>
              <td class="wide-only">${ref.kind}</td>
              <td class="ready">${readyAt >= 0 ? item.columns.cells[readyAt] : '—'}</td>
              ${item.controlPlane
                ? html`<td class="cell control-plane" colspan=${columns.length}>${item.controlPlane}</td>`
                : columns.map((c) => {
                    // One text node per cell: a page is 50 rows × up to 100 clusters, and every extra element costs.
                    const cell = cellOf(item, c);
                    return cell
                      ? html`<td key=${c} class=${`cell ${cell.tone}`} title=${cell.message || undefined}>${`${cell.counts} ${MARK[cell.tone]} ${cell.health}`}</td>`
                      : html`<td key=${c} class="cell empty" aria-label="not placed">–</td>`;
                  })}
            </tr>`;
          })}
        </tbody>
      </table>
    </${Scroll}>
    ${workloads.total === 0 ? html`<p>No workload matches these filters.</p>` : null}
  </section>`;
}

function FleetView({ params, heads }) {
  const query = Object.fromEntries(params);
  const setQuery = useCallback((q) => {
    location.hash = link('/fleet', q);
  }, []);
  // Where the cluster pagers stand is in the address too (a link or a reload shows the same rows), but the server
  // answers the same whatever they say: they are not part of the question asked.
  const { rows, columns, ...asked } = query;
  const api = `/ui/api/fleet?${new URLSearchParams({ ...asked, limit: String(PAGE) })}`;
  const { data, error } = useApi(api, heads);
  const at = (value) => Math.max(0, Number(value) || 0);
  const moveTo = (field) => (n) => setQuery({ ...query, [field]: n > 0 ? String(n) : '' });
  return html`<div>
    <h1>Fleet</h1>
    <${ErrorNote} error=${error} />
    ${data
      ? html`<${ClustersTable} clusters=${data.clusters.items} applied=${data.applied} heartbeats=${data.heartbeats}
            firstRow=${at(rows)} setFirstRow=${moveTo('rows')} />
          <${Matrix} workloads=${data.workloads} query=${query} setQuery=${setQuery}
            firstColumn=${at(columns)} setFirstColumn=${moveTo('columns')} />`
      : error
        ? null
        : html`<p class="loading">Loading…</p>`}
  </div>`;
}

// ---- Object ----------------------------------------------------------------------------------------------------

function Diff({ text, label }) {
  if (!text) return html`<p class="muted">No difference.</p>`;
  return html`<pre class="diff" aria-label=${label} tabindex="0">${text.split('\n').map((line, i) => {
    const cls = line.startsWith('+++') || line.startsWith('---') ? 'meta' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : '';
    return html`<span key=${i} class=${cls}>${`${line}\n`}</span>`;
  })}</pre>`;
}

function SourceLink({ source }) {
  if (!source) return html`<span class="muted">not in the source head</span>`;
  return html`<code>${source.file}:${source.line}:${source.column}</code>`;
}

function BlameBlock({ blame }) {
  if (blame.code) return html`<p class="muted">Blame: ${blame.message}</p>`;
  const s = blame.source;
  return html`<dl class="facts blame">
    <dt>Source commit</dt><dd><code>${short(s.sha)}</code> ${s.subject}${s.pullRequest !== undefined ? html` <span class="pr">PR #${s.pullRequest}</span>` : null}</dd>
    <dt>Author</dt><dd>${`${s.author} <${s.email}> `}<${Ago} at=${s.date} /></dd>
    <dt>Applied render</dt><dd><code>${short(blame.appliedRenderedCommit)}</code></dd>
    <dt>Latest</dt><dd>${
      blame.upToDate
        ? html`<${Badge} tone="ok">up to date</${Badge}>`
        : html`<${Badge} tone="wait">not up to date</${Badge}> rendered head <code>${short(blame.renderedHead)}</code>${blame.pending && !blame.pending.removed ? ` waits: ${blame.pending.subject}` : ''}`
    }</dd>
  </dl>`;
}

function ClusterSection({ c }) {
  const st = c.status;
  return html`<section class="cluster-trace" aria-labelledby=${`cluster-${c.name}`}>
    <h3 id=${`cluster-${c.name}`}>${c.name}</h3>
    <p>Live status: ${
      !st
        ? html`<${Badge} tone="wait">no status yet</${Badge}>`
        : html`<${Badge} tone=${st.applied ? (st.health === 'Healthy' ? 'ok' : 'wait') : 'bad'}>${st.applied ? st.health : 'not applied'}</${Badge}>
            ${st.status?.readyReplicas !== undefined ? ` ${st.status.readyReplicas}/${st.status.replicas ?? '?'} ready` : ''}
            ${st.message ? html` <span class="why">${st.message}</span>` : null}`
    }</p>
    <h4>Blame</h4>
    <${BlameBlock} blame=${c.blame} />
    <details>
      <summary>What overrides changed (diff against the template)</summary>
      <${Diff} text=${c.diff} label=${`Diff of the template against ${c.name}'s manifest`} />
    </details>
    <details>
      <summary>Rendered manifest <code>${c.path}</code></summary>
      <pre class="yaml" tabindex="0" aria-label=${`${c.name} rendered manifest`}>${c.manifest ?? '(none)'}</pre>
    </details>
  </section>`;
}

function ExplainBlock({ e, clusterNames }) {
  if (!e) return html`<p class="muted">The source head no longer has this template.</p>`;
  const byCluster = new Map((e.schedule?.explanation ?? []).map((x) => [x.cluster, x]));
  const names = [...new Set([...clusterNames, ...e.clusters.map((c) => c.name), ...byCluster.keys()])].sort();
  return html`<div>
    <dl class="facts">
      <dt>Policy</dt><dd>${e.policy ?? '(none)'}</dd>
      <dt>Why</dt><dd>${e.policyReason}</dd>
      ${e.schedule ? html`<dt>Scheduling</dt><dd>${e.schedule.status}${e.schedule.message ? ` — ${e.schedule.message}` : ''}</dd>` : null}
      ${e.held ? html`<dt>Held</dt><dd>${e.held}</dd>` : null}
    </dl>
    <${Scroll} label="Scheduling per cluster">
      <table>
        <caption>Binding: the scheduler's result per cluster</caption>
        <thead><tr><th scope="col">Cluster</th><th scope="col">Result</th><th scope="col">Replicas</th><th scope="col">Why</th></tr></thead>
        <tbody>${names.map((name) => {
          const t = e.clusters.find((c) => c.name === name);
          const x = byCluster.get(name);
          const result = x?.outcome === 'filtered' ? 'filtered' : t ? 'selected' : 'not selected';
          const why = x?.outcome === 'filtered' ? `${x.plugin}: ${x.reason}` : x ? x.why : t ? e.policyReason : '';
          return html`<tr key=${name}><th scope="row">${name}</th>
            <td><${Badge} tone=${result === 'selected' ? 'ok' : result === 'filtered' ? 'bad' : 'none'}>${result}</${Badge}></td>
            <td>${t?.replicas ?? '–'}</td><td>${why}</td></tr>`;
        })}</tbody>
      </table>
    </${Scroll}>
  </div>`;
}

function HistoryList({ history }) {
  if (!history.length) return html`<p class="muted">No history on the rendered branch.</p>`;
  return html`<ol class="history">${history.map(
    (h) => html`<li key=${h.outputCommit}>
      <code>${short(h.sourceCommit ?? h.outputCommit)}</code> ${h.subject}
      ${h.renderedAgainFor !== undefined ? html`<div class="again">rendered again: ${h.renderedAgainFor}</div>` : null}
      ${h.pullRequest !== undefined ? html` <span class="pr">PR #${h.pullRequest}</span>` : null}
      <span class="muted"> — ${h.author}, <${Ago} at=${h.date} /></span>
      <ul class="changes">${h.changes.map((c) => html`<li key=${c.path}>${c.cluster ?? 'binding'}: ${c.change}</li>`)}</ul>
    </li>`,
  )}</ol>`;
}

function ObjectView({ params, heads }) {
  const key = params.get('key') ?? '';
  const query = new URLSearchParams({ key });
  const { data, error } = useApi(`/ui/api/object?${query}`, heads);
  // Why it went where it went renders the whole source commit: asked apart, so the rest shows at once.
  const placement = useApi(`/ui/api/explain?${query}`, heads);
  const ref = data?.ref ?? parseKey(key);
  return html`<div>
    <p><a href="#/fleet">← Fleet</a></p>
    <h1>${refLabel(ref)}</h1>
    <${ErrorNote} error=${error} />
    ${!data
      ? error
        ? null
        : html`<p class="loading">Loading…</p>`
      : html`<div>
          <dl class="facts">
            <dt>Source</dt><dd>${placement.data ? html`<${SourceLink} source=${placement.data.source} />` : html`<span class="loading">…</span>`}</dd>
            <dt>API version</dt><dd>${ref.apiVersion}</dd>
            <dt>Clusters</dt><dd>${data.clusters.map((c) => c.name).join(', ') || 'none'}</dd>
          </dl>
          <section aria-labelledby="explain-title"><h2 id="explain-title">Policy and placement</h2>
            <${ErrorNote} error=${placement.error} />
            ${placement.data
              ? html`<${ExplainBlock} e=${placement.data.explanation} clusterNames=${data.clusters.map((c) => c.name)} />`
              : placement.error
                ? null
                : html`<p class="loading" role="status">Working out the placement (explain)…</p>`}
          </section>
          <section aria-labelledby="members-title"><h2 id="members-title">On each cluster</h2>
            ${data.clusters.map((c) => html`<${ClusterSection} key=${c.name} c=${c} />`)}
          </section>
          <section aria-labelledby="history-title"><h2 id="history-title">History</h2>
            <${HistoryList} history=${data.history} />
          </section>
        </div>`}
  </div>`;
}

// ---- Changes ---------------------------------------------------------------------------------------------------

function CommitDiff({ commit, cluster, heads }) {
  const { data, error } = useApi(`/ui/api/diff?${new URLSearchParams({ commit, cluster })}`, heads);
  if (error) return html`<${ErrorNote} error=${error} />`;
  return data ? html`<${Diff} text=${data.diff} label=${`Changes on ${cluster}`} />` : html`<p class="loading">Loading…</p>`;
}

/** Why a timeline entry names a cluster without counting its files (readChanges.ts, ClusterChange.notCounted). */
const NOT_COUNTED = {
  'first-render': 'first render, every file added (not counted here)',
  'too-many': 'too many files changed to count here',
};

function CommitEntry({ c, heads }) {
  const [open, setOpen] = useState(null);
  const clusters = Object.keys(c.clusters).sort();
  return html`<li class="commit">
    <div class="commit-head">
      <code title=${c.renderedCommit}>${short(c.sourceCommit ?? c.renderedCommit)}</code>
      <strong>${c.subject}</strong>
      ${c.pullRequest !== undefined ? html`<span class="pr">PR #${c.pullRequest}</span>` : null}
      <span class="muted"> ${c.author} · <${Ago} at=${c.date} /></span>
      ${c.renderedAgainFor !== undefined ? html`<div class="again">rendered again: ${c.renderedAgainFor}</div>` : null}
    </div>
    <div class="flow"><span>source</span> → <span>rendered <code>${short(c.renderedCommit)}</code></span> → applied:
      ${Object.entries(c.applied).map(([name, ok]) => html` <${Badge} key=${name} tone=${ok ? 'ok' : 'wait'}>${name} ${ok ? 'applied' : 'waiting'}</${Badge}>`)}
    </div>
    ${clusters.length
      ? html`<ul class="per-cluster">${clusters.map((name) => {
          const ch = c.clusters[name];
          const n = ch.counts;
          const summary = NOT_COUNTED[ch.notCounted]
            ?? [n.added && `${n.added} added`, n.changed && `${n.changed} changed`, n.removed && `${n.removed} removed`].filter(Boolean).join(', ');
          return html`<li key=${name}>
            <button type="button" aria-expanded=${open === name} onClick=${() => setOpen(open === name ? null : name)}>${name}: ${summary}</button>
            ${open === name ? html`<${CommitDiff} commit=${c.renderedCommit} cluster=${name} heads=${heads} />` : null}
          </li>`;
        })}</ul>`
      : html`<p class="muted">No change on any cluster.</p>`}
  </li>`;
}

function PlanForm({ heads }) {
  const [base, setBase] = useState('');
  const [head, setHead] = useState('main');
  const [asked, setAsked] = useState(null);
  const { data, error, loading } = useApi(asked ? `/ui/api/plan?${new URLSearchParams(asked)}` : null, heads);
  return html`<section aria-labelledby="plan-title">
    <h2 id="plan-title">Plan between two revisions</h2>
    <form class="filters" onSubmit=${(e) => {
      e.preventDefault();
      setAsked({ base, head });
    }}>
      <label>Base <input value=${base} placeholder="main~1" onInput=${(e) => setBase(e.currentTarget.value)} required /></label>
      <label>Head <input value=${head} onInput=${(e) => setHead(e.currentTarget.value)} required /></label>
      <button type="submit">Plan</button>
    </form>
    ${asked && error ? html`<${ErrorNote} error=${error} />` : null}
    ${asked && loading ? html`<p class="loading">Rendering both revisions…</p>` : null}
    ${asked && data && !loading
      ? html`<div class="plan">
          <p>Plan <code>${short(data.base)}</code> → <code>${short(data.head)}</code> (the same as <code>flotilla plan -o json</code>)</p>
          ${data.errors.length ? html`<ul>${data.errors.map((p, i) => html`<li key=${i}><${Badge} tone="bad">${p.code}</${Badge}> ${p.file}:${p.line} ${p.message}</li>`)}</ul>` : null}
          <ul>${Object.entries(data.clusters).map(([name, c]) => html`<li key=${name}><strong>${name}</strong>: ${c.added.length} added, ${c.changed.length} changed, ${c.removed.length} removed${c.released?.length ? `, ${c.released.length} released (left on the member, unmanaged)` : ''}
            <ul>${[...c.added.map((r) => `+ ${r}`), ...c.changed.map((r) => `~ ${r}`), ...c.removed.map((r) => `- ${r}`), ...(c.released ?? []).map((r) => `. ${r}`)].map((l) => html`<li key=${l}><code>${l}</code></li>`)}</ul></li>`)}</ul>
          ${data.replicas.length ? html`<p>Replica moves: ${data.replicas.map((m) => JSON.stringify(m)).join('; ')}</p>` : null}
          ${data.held.length ? html`<p><${Badge} tone="warn">held prunes</${Badge}> ${data.held.map((h) => `${h.cluster}: ${h.message}`).join('; ')}</p>` : null}
        </div>`
      : null}
  </section>`;
}

function ChangesView({ heads }) {
  const { data, error } = useApi('/ui/api/changes?limit=30', heads);
  return html`<div>
    <h1>Changes</h1>
    <${ErrorNote} error=${error} />
    ${data && data.notUpToDate.length
      ? html`<p class="notice" role="status">Not up to date: ${data.notUpToDate.map((n) => `${n.cluster} (last applied ${short(n.appliedRenderedCommit)})`).join(', ')}</p>`
      : null}
    ${data ? html`<ol class="timeline" aria-label="Rendered commits, newest first">${data.commits.map((c) => html`<${CommitEntry} key=${c.renderedCommit} c=${c} heads=${heads} />`)}</ol>` : error ? null : html`<p class="loading">Loading…</p>`}
    <${PlanForm} heads=${heads} />
  </div>`;
}

// ---- Needs attention -------------------------------------------------------------------------------------------

const ATTENTION_LABEL = {
  'validation-error': 'Validation error',
  'cluster-not-ready': 'Cluster not ready',
  'apply-failed': 'Apply failed',
  conflict: 'Conflict',
  'prune-held': 'Prune held',
  unschedulable: 'Unschedulable',
  eviction: 'Eviction in progress',
};

function AttentionView({ heads }) {
  const attention = useApi('/ui/api/attention', heads);
  // Validation errors come from rendering the source head: asked apart, listed first once they are in.
  const validation = useApi('/ui/api/validation', heads);
  const error = attention.error ?? validation.error;
  const data = attention.data && { items: [...(validation.data?.items ?? []), ...attention.data.items] };
  return html`<div>
    <h1>Needs attention</h1>
    <${ErrorNote} error=${error} />
    ${!data
      ? error
        ? null
        : html`<p class="loading">Loading…</p>`
      : data.items.length === 0
        ? validation.data
          ? html`<p><${Badge} tone="ok">All clear</${Badge}> Nothing needs attention.</p>`
          : html`<p class="loading" role="status">Checking the source head for validation errors…</p>`
        : html`<ul class="attention">${data.items.map(
            (item, i) => html`<li key=${i}>
              <${Badge} tone=${item.type === 'eviction' || item.type === 'unschedulable' || item.type === 'prune-held' ? 'warn' : 'bad'}>${ATTENTION_LABEL[item.type] ?? item.type}</${Badge}>
              ${item.key ? html`<a href=${objectLink(item.key)}>${item.title}</a>` : item.cluster ? html`<a href=${link('/fleet', { cluster: item.cluster })}>${item.title}</a>` : html`<span>${item.title}</span>`}
              <div class="why">${item.message}</div>
            </li>`,
          )}</ul>
          ${validation.data ? null : html`<p class="loading" role="status">Checking the source head for validation errors…</p>`}`}
  </div>`;
}

// ---- shell -----------------------------------------------------------------------------------------------------

const NAV = [
  ['/fleet', 'Fleet'],
  ['/changes', 'Changes'],
  ['/attention', 'Needs attention'],
];

function App() {
  const route = useRoute();
  const { heads, live } = useHeads();
  const main = useRef(null);
  // A new view moves focus to its content, so keyboard and screen-reader users land on what changed; not on the
  // first load, where the first Tab belongs to the skip link.
  const firstView = useRef(true);
  useEffect(() => {
    if (firstView.current) firstView.current = false;
    else main.current?.focus({ preventScroll: true });
  }, [route.path]);
  const view = useMemo(() => route.path, [route.path]);
  return html`<div class="shell">
    <header>
      <a class="brand" href="#/fleet">Flotilla</a>
      <nav aria-label="Views"><ul>${NAV.map(
        ([path, label]) => html`<li key=${path}><a href=${`#${path}`} aria-current=${view === path ? 'page' : undefined}>${label}</a></li>`,
      )}</ul></nav>
      <p class="heads" aria-live="polite">
        <${Badge} tone=${live === 'live' ? 'ok' : 'wait'}>${live}</${Badge}>
        ${heads ? html` source <code>${short(heads.source)}</code> · rendered <code>${short(heads.rendered)}</code> · status <code>${short(heads.status)}</code>` : null}
      </p>
    </header>
    <main id="main" ref=${main} tabindex="-1">
      ${view === '/object'
        ? html`<${ObjectView} params=${route.params} heads=${heads} />`
        : view === '/changes'
          ? html`<${ChangesView} heads=${heads} />`
          : view === '/attention'
            ? html`<${AttentionView} heads=${heads} />`
            : html`<${FleetView} params=${route.params} heads=${heads} />`}
    </main>
  </div>`;
}

const root = document.getElementById('app');
root.textContent = ''; // the static "Loading" line: render() adds to what the container holds
render(html`<${App} />`, root);
