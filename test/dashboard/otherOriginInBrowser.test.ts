// Another origin in a real browser: a page served from another port of this machine (another origin, the same site)
// asks the dashboard's API as any web page can, without reading the answer. Fetch Metadata says where it comes from,
// and the dashboard answers none of it; a person following a link from that page to the dashboard still gets it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDashboard, type Dashboard } from '../../src/dashboard/createDashboard.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { openBrowser, type Browser } from '../helpers/browser.ts';
import { makeFleetRepo } from '../views/helpers/fleetRepo.ts';

const WAIT = { timeout: 60_000 };
let repo: TempRepo | undefined;
let dashboard: Dashboard | undefined;
const servers: Server[] = [];
let browser: Browser | undefined;

test.after(async () => {
  await browser?.close();
  await dashboard?.close();
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  repo?.cleanup();
});

test("a page of another origin cannot set the dashboard's API to work, and a link from it still opens the dashboard", async () => {
  ({ repo } = await makeFleetRepo());
  dashboard = await createDashboard({ gitdir: repo.path });
  // What the dashboard answered each request marked `via`, seen as the server finishes it: the browser keeps a
  // refused cross-origin answer from the page and from playwright alike (Cross-Origin-Resource-Policy).
  const answered = new Map<string, number>();
  let onAnswer = () => {};
  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const dashboardUrl = await listen((req, res) => {
    res.on('finish', () => {
      const via = new URL(req.url ?? '/', 'http://x').searchParams.get('via');
      if (via) answered.set(via, res.statusCode);
      onAnswer();
    });
    void dashboard!.handle(req, res);
  });
  const otherUrl = await listen((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><a href="${dashboardUrl}/ui/">the dashboard</a>
<img src="${dashboardUrl}/ui/api/plan?base=main&head=main&via=img">
<script>fetch(${JSON.stringify(`${dashboardUrl}/ui/api/plan?base=main&head=main&via=fetch`)}, { mode: 'no-cors' }).catch(() => {});</script>`);
  });
  const bothAnswered = new Promise<void>((resolve) => {
    onAnswer = () => answered.size === 2 && resolve();
  });

  browser = await openBrowser();
  const { page } = browser;
  await page.goto(otherUrl);
  await bothAnswered;
  assert.equal(Object.fromEntries(answered), { img: 403, fetch: 403 });

  await page.getByRole('link', { name: 'the dashboard' }).click();
  await page.getByRole('table', { name: 'Clusters' }).getByRole('rowheader', { name: 'member1' }).waitFor(WAIT);
  // On the dashboard's own page, its requests are the same origin's and answered.
  const plan = await page.evaluate(async () => (await fetch('/ui/api/plan?base=main&head=main')).status);
  assert.is(plan, 200);
});

test.run();
