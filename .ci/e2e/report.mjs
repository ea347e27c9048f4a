// End-to-end check of the permalink report pages in real headless Chromium (Debian's chromium,
// driven by playwright-core): a query over MCP returns a permalink; ana signs in through the token
// form and sees the table in Brazilian formats and the SVG chart, also at phone width; carla (another tenant) signs
// in and gets the "not found" page, with no data.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium } from "playwright-core";

const [base, anaToken, carlaToken] = process.argv.slice(2);

// 1. Two queries over MCP as ana: stores per store (bars) and sales per month (line).
const client = new Client({ name: "lumo-e2e-report", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${anaToken}` } } }),
);
const catalog = await client.callTool({ name: "search_catalog", arguments: {} });
const vendas = catalog.structuredContent.apps.find((a) => a.desk === "Comercial" && a.name === "Vendas");
assert.ok(vendas, "the Comercial Vendas app");
const byStore = await client.callTool({
  name: "query",
  arguments: {
    appId: vendas.id,
    fields: [{ ref: "Lojas.Loja" }, { ref: "Vendas.Valor da venda", agg: "sum" }],
    orderBy: [{ ref: "Vendas.Valor da venda", agg: "sum", dir: "desc" }],
    limit: 3,
  },
});
assert.equal(byStore.isError ?? false, false, JSON.stringify(byStore));
const link = byStore.structuredContent.permalink;
assert.match(link, new RegExp(`^${base.replace(/[.]/g, "\\.")}/app/${vendas.id}/report/[A-Za-z0-9_-]{22,}$`));
const byMonth = await client.callTool({
  name: "query",
  arguments: { appId: vendas.id, fields: [{ ref: "Vendas.Data", bucket: "month" }, { ref: "Vendas.Valor da venda", agg: "sum" }] },
});
assert.equal(byMonth.isError ?? false, false, JSON.stringify(byMonth));
const wide = await client.callTool({
  name: "query",
  arguments: {
    appId: vendas.id,
    fields: [{ ref: "Lojas.Loja" }, { ref: "Vendas.Data", bucket: "month" }, { ref: "Vendas.Valor da venda", agg: "sum" },
      { ref: "Vendas.Valor da venda", agg: "avg" }, { ref: "Vendas.Valor da venda", agg: "max" }],
    limit: 40,
  },
});
assert.equal(wide.isError ?? false, false, JSON.stringify(wide));
await client.close();

const brl = (v) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(v).replace(/\s/g, " ");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  // 2. ana: redirected to the login form, signs in, lands on the report.
  const ana = await browser.newContext();
  const page = await ana.newPage();
  const problems = [];
  page.on("console", (m) => /Content Security Policy|Refused to/.test(m.text()) && problems.push(m.text()));
  await page.goto(link);
  assert.match(page.url(), /\/login\?next=/);
  await page.fill("#token", "wrong-token");
  await page.click("button[type=submit]");
  assert.match(await page.textContent("[role=alert]"), /Token desconhecido/);
  await page.fill("#token", anaToken);
  await Promise.all([page.waitForURL(link), page.click("button[type=submit]")]);
  assert.equal(await page.title(), "Vendas · Lumo");
  assert.equal(await page.textContent("h1"), "Vendas");
  assert.match(await page.textContent(".frescor"), /^Dados carregados até \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} /);
  assert.deepEqual(await page.locator("thead th").allTextContents(), byStore.structuredContent.columns.map((c) => c.label));
  const cells = await page.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  assert.equal(cells.length, 3);
  cells.forEach((row, i) => {
    const [loja, valor] = byStore.structuredContent.rows[i];
    assert.equal(row[0], loja);
    assert.match(row[1], /^R\$ \d{1,3}(\.\d{3})*,\d{2}$/);
    assert.equal(row[1], brl(valor), `row ${i}: ${row[1]} vs ${valor}`);
  });
  assert.equal(await page.textContent(".linhas"), "Linhas: 3 de 7; as outras 4 existem e não estão aqui.");
  // The nonce'd stylesheet applied despite the CSP.
  assert.equal(await page.locator("td.num").first().evaluate((td) => getComputedStyle(td).textAlign), "right");
  const bars = page.locator("svg.grafico.largo rect.barra");
  assert.equal(await bars.count(), 3);
  const heights = await bars.evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().height));
  assert.ok(heights[0] > 0 && heights[0] >= heights[1] && heights[1] >= heights[2], `bar heights ${heights}`);
  assert.ok(await page.locator("svg.grafico.largo").isVisible());
  assert.ok(!(await page.locator("svg.grafico.compacto").isVisible()), "the phone's chart is hidden on a wide screen");

  // 3. The monthly query: a line with one point per month.
  await page.goto(byMonth.structuredContent.permalink);
  assert.equal(await page.locator("svg.grafico.largo polyline").count(), 1);
  assert.equal(await page.locator("svg.grafico.largo circle.ponto").count(), byMonth.structuredContent.rowCount);
  assert.deepEqual(problems, [], "no CSP violation");

  // 4. At phone width (390 px) a five-column report does not widen the page: the table scrolls
  // inside its box, and the phone's chart fits the screen whole, its labels at least 9 px tall.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(wide.structuredContent.permalink);
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(pageWidth <= 390, `the page is ${pageWidth} px wide at 390`);
  assert.ok(await page.locator(".tabela").evaluate((d) => d.scrollWidth > d.clientWidth), "the table scrolls in its box");
  assert.ok(!(await page.locator("svg.grafico.largo").isVisible()), "the wide chart is hidden on a phone");
  const chartBox = await page.locator("svg.grafico.compacto").evaluate((g) => g.getBoundingClientRect().toJSON());
  assert.ok(chartBox.left >= 0 && chartBox.right <= 390 && chartBox.width > 0, `the chart spans ${chartBox.left}..${chartBox.right} at 390`);
  const label = await page.locator("svg.grafico.compacto text").last().evaluate((t) => t.getBoundingClientRect().height);
  assert.ok(label >= 9, `chart labels ${label} px tall`);
  await ana.close();

  // 5. carla, another tenant: a valid login does not open ana's report.
  const carla = await browser.newContext();
  const other = await carla.newPage();
  await other.goto(link);
  await other.fill("#token", carlaToken);
  const [resp] = await Promise.all([other.waitForResponse((r) => r.url() === link), other.click("button[type=submit]")]);
  assert.equal(resp.status(), 404);
  assert.equal(await other.textContent("h1"), "Relatório não encontrado");
  assert.equal(await other.locator("table").count(), 0);
  assert.ok(!(await other.content()).includes("R$"), "carla sees no data");
  await carla.close();
} finally {
  await browser.close();
}
console.log("report e2e: permalink, login, table, chart and access rules passed in Chromium");
