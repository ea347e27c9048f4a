// End-to-end check, in real headless Chromium, that a web page the owner visits cannot use a local
// server: pages on another site (http://localhost:<port>) and on another port of the same host
// (same-site) post to the REST mirror and /mcp the ways a page can without a CORS preflight
// (fetch in no-cors mode with a text or an untyped body, a simple text/plain fetch, a text/plain form), and a page whose name
// rebinds to 127.0.0.1 (Chromium's --host-resolver-rules) reads the tools as its own origin. Every
// request must reach the server and be refused by it (401, 403 or 415; 429 once failed tokens pile up), never answered 200; the
// caller then checks that nothing was written.
// The browser's own defences against pages reaching local addresses (Local Network Access) are
// turned off: the server must hold on browsers that do not have them.
// Usage: node crosssite.mjs BASE_URL READ_TOOL READ_ARGS [WRITE_TOOL WRITE_ARGS]
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { chromium } from "playwright-core";

const [base, readTool, readArgs, writeTool, writeArgs] = process.argv.slice(2);
const port = new URL(base).port;
const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "evil", version: "1" } } });
const calls = [[`${base}/tools/${readTool}`, readArgs], [`${base}/mcp`, init]];
if (writeTool) calls.push([`${base}/tools/${writeTool}`, writeArgs]);

// The attacker's site: one empty page.
const evil = createServer((_, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>x</title>"));
await new Promise((ok) => evil.listen(0, "127.0.0.1", ok));
const evilPort = evil.address().port;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--host-resolver-rules=MAP attacker.example 127.0.0.1",
    "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights"],
});
try {
  const page = await (await browser.newContext()).newPage();
  // Every answer the server gave to a request of ours, by URL (opaque ones too). A cors fetch whose
  // answer lacks CORS headers shows as a failed request instead; the caller's check that nothing
  // was written covers it.
  const seen = [];
  page.on("response", (r) => r.url().startsWith(base) && seen.push([r.request().method(), r.url(), r.status()]));
  for (const origin of [`http://localhost:${evilPort}`, `http://127.0.0.1:${evilPort}`]) {
    await page.goto(`${origin}/`);
    for (const [url, body] of calls) {
      const before = seen.length;
      // fetch in no-cors mode (a text body goes as text/plain), and a simple cors
      // fetch whose answer the page cannot read but whose request the server gets.
      await page.evaluate(async ([url, body]) => {
        await fetch(url, { method: "POST", mode: "no-cors", body }).catch(() => {});
        // A Blob without a type: no Content-Type header at all.
        await fetch(url, { method: "POST", mode: "no-cors", body: new Blob([body]) }).catch(() => {});
        await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body }).catch(() => {});
      }, [url, body]);
      // A form posting the JSON as text/plain (the classic cross-site JSON post), in a frame.
      await page.evaluate(([url, body]) => {
        const f = document.createElement("form");
        Object.assign(f, { method: "POST", action: url, enctype: "text/plain", target: "sink" });
        const i = Object.assign(document.createElement("input"), { name: body.slice(0, -1) + ',"x":"', value: '"}' });
        const frame = Object.assign(document.createElement("iframe"), { name: "sink" });
        document.body.append(frame, f);
        f.append(i);
        f.submit();
      }, [url, body]);
      await page.waitForTimeout(500);
      const got = seen.slice(before);
      assert.ok(got.length >= 3, `${origin} → ${url}: expected the answers to the no-cors fetches and the form, saw ${JSON.stringify(got)}`);
      for (const [method, u, status] of got) {
        assert.ok([401, 403, 415, 429].includes(status), `${origin} → ${method} ${u}: ${status}, want a refusal by the server`);
      }
      console.log(`${origin} → ${url}: ${got.map((g) => g[2]).join(", ")}`);
    }
  }

  // DNS rebinding: the attacker's page was served from its own host, whose name now resolves to
  // 127.0.0.1; its fetches are same-origin, so it could read every answer.
  const rebound = `http://attacker.example:${port}`;
  await page.route(`${rebound}/`, (r) => r.fulfill({ contentType: "text/html", body: "<!doctype html><title>x</title>" }));
  await page.goto(`${rebound}/`);
  for (const [url, body] of calls) {
    const path = new URL(url).pathname;
    const [status, text] = await page.evaluate(async ([path, body]) => {
      const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body });
      return [r.status, await r.text()];
    }, [path, body]);
    assert.equal(status, 403, `${rebound}${path}: ${status} ${text.slice(0, 200)}`);
    assert.match(text, /Host não permitido/);
    console.log(`${rebound}${path}: ${status}`);
  }
  for (const path of ["/openapi.json", "/healthz"]) {
    const status = await page.evaluate(async (path) => (await fetch(path)).status, path);
    assert.equal(status, 403, `${rebound}${path}: ${status}`);
  }
} finally {
  await browser.close();
  evil.close();
}
console.log(`crosssite ${base}: every cross-site and rebound request refused`);
