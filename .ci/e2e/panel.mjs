// End-to-end check of caderninho's private panel in real headless Chromium (Debian's chromium,
// driven by playwright-core), against the built binary on a database imported from an
// installation.yaml: the owner logs in, adds a person and a connection, uploads two statements
// (one overlapping the other) and reads the per-file counts and the coverage, writes a categorisation
// rule on the rules page (at a phone's width and a desktop's), issues an assistant
// token and uses it over MCP, revokes it and gets 401. Hostile input is refused with nothing
// written: a 100 MB upload, a non-OFX file, HTML in every name, a forged anti-CSRF token and a
// cross-site POST.
// Usage: node panel.mjs BASE_URL OWNER_CREDENTIAL WORK_DIR (the issued token is written to
// WORK_DIR/token so the caller can check it never reached the server's log).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium } from "playwright-core";

const [base, credential, work] = process.argv.slice(2);
mkdirSync(work, { recursive: true });

// Minimal OFX statements of one checking account.
const ofx = (start, end, trns) =>
  "OFXHEADER:100\nDATA:OFXSGML\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n" +
  "<BANKACCTFROM><BANKID>1<ACCTID>4242-1<ACCTTYPE>CHECKING</BANKACCTFROM>\n" +
  `<BANKTRANLIST><DTSTART>${start}<DTEND>${end}\n` +
  trns.map(([day, amt, id]) => `<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${day}<TRNAMT>${amt}<FITID>${id}<MEMO>COMPRA ${id}\n</STMTTRN>\n`).join("") +
  `</BANKTRANLIST><LEDGERBAL><BALAMT>1234.56<DTASOF>${end}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
const file = (name, content) => {
  const p = join(work, name);
  writeFileSync(p, content);
  return p;
};
const august = file("agosto.ofx", ofx("20260801", "20260831", [["20260803", "-10.00", "A1"], ["20260818", "-20.00", "A2"], ["20260820", "-30.00", "A3"]]));
const overlap = file(
  "fim-agosto.ofx",
  ofx("20260815", "20260915", [["20260818", "-20.00", "A2"], ["20260820", "-30.00", "A3"], ["20260901", "-5.00", "B1"], ["20260910", "-6.00", "B2"]]),
);
const notOfx = file("notas.txt", "isto não é um extrato");
const htmlName = file("<i>falso<i>.ofx", "OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n<BANKTRANLIST><STMTTRN><TRNAMT>abc\n");
const huge = join(work, "enorme.ofx");
writeFileSync(huge, Buffer.alloc(100 << 20, 0x41));

const hostile = (s) => `<img src=x onerror=alert(1)>${s}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
let token;
try {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const problems = [];
  page.on("console", (m) => /Content Security Policy|Refused to/.test(m.text()) && problems.push(m.text()));
  page.on("dialog", (d) => {
    problems.push("a dialog opened: " + d.message());
    d.dismiss();
  });
  const submit = async (form) => {
    await Promise.all([page.waitForLoadState("load"), form.locator("button[type=submit]").click()]);
    return page;
  };

  // 1. Log in (a wrong credential first).
  await page.goto(`${base}/painel/`);
  assert.match(page.url(), /\/painel\/entrar$/);
  await page.fill("#credencial", "cadpainel_errada");
  await page.click("button[type=submit]");
  assert.match(await page.textContent("[role=alert]"), /Credencial: não confere/);
  await page.fill("#credencial", credential);
  await Promise.all([page.waitForURL(`${base}/painel/`), page.click("button[type=submit]")]);
  assert.equal(await page.textContent("h1"), "Painel");

  // 2. A person by name alone: the key comes from the name. Another, with HTML in the name and
  // the key chosen under "Avançado": the name shown as text.
  await page.goto(`${base}/painel/pessoas`);
  await page.fill("#name", "Maria José");
  await Promise.all([page.waitForURL(/feito=pessoa-adicionada/), page.click("form[action$='/painel/pessoas'] button[type=submit]")]);
  assert.match(await page.textContent("body"), /chave maria-jose/);
  await page.click("form[action$='/painel/pessoas'] summary");
  await page.fill("#key", "ze");
  await page.fill("#name", hostile("Zé"));
  await Promise.all([page.waitForURL(/feito=pessoa-adicionada/), page.click("form[action$='/painel/pessoas'] button[type=submit]")]);
  assert.match(await page.textContent("[role=status]"), /Pessoa adicionada/);
  assert.ok((await page.textContent("body")).includes(hostile("Zé")), "the name is shown as text");
  assert.equal(await page.locator("img").count(), 0, "no markup from a name");

  // 3. A connection held by ze in space casa, with HTML in the institution.
  await page.goto(`${base}/painel/conexoes`);
  await page.fill("#key", "ipe-ze");
  await page.fill("#institution", hostile("Banco Ipê"));
  await page.selectOption("#holder", "ze");
  await page.selectOption("#space", "casa");
  await Promise.all([page.waitForURL(/feito=conexao-adicionada/), page.click("form[action$='/painel/conexoes'] button[type=submit]")]);
  assert.match(await page.textContent("[role=status]"), /Conexão adicionada/);
  assert.equal(await page.locator("img").count(), 0);

  // 4. Two statements at once, the second overlapping the first: per-file counts.
  const uploadForm = () => page.locator("#conexao-ipe-ze form[enctype='multipart/form-data']");
  await page.setInputFiles("#extratos-ipe-ze", [august, overlap]);
  await submit(uploadForm());
  const rows = async () =>
    page.locator("tr.arquivo").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim().replace(/\s+/g, " "))));
  let report = await rows();
  assert.deepEqual(report, [
    ["agosto.ofx", "novo", "3 transações novas, 0 já importadas, 1 conta nova"],
    ["fim-agosto.ofx", "novo", "2 transações novas, 2 já importadas, 0 contas novas"],
  ]);
  assert.match(await page.textContent("#conexao-ipe-ze"), /1 conta, 2 arquivos importados/);
  assert.doesNotMatch(await page.textContent("#conexao-ipe-ze"), /Último sucesso: nunca/);

  // 5. The same file again, a non-OFX file and a malformed one with HTML in its name.
  await page.setInputFiles("#extratos-ipe-ze", [august, notOfx, htmlName]);
  await submit(uploadForm());
  report = await rows();
  assert.equal(report.length, 3);
  assert.deepEqual(report[0].slice(0, 2), ["agosto.ofx", "já importado"]);
  assert.deepEqual(report[1].slice(0, 2), ["notas.txt", "recusado"]);
  assert.match(report[1][2], /não é um extrato OFX ou QFX/);
  assert.deepEqual(report[2].slice(0, 2), ["<i>falso<i>.ofx", "recusado"]);
  assert.match(report[2][2], /^linha \d+: /);
  assert.equal(await page.locator("td i").count(), 0, "no markup from a file name");

  // 6. 100 MB: refused as a whole, nothing written.
  await page.setInputFiles("#extratos-ipe-ze", [huge]);
  const [big] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/painel/conexoes/extratos")), uploadForm().locator("button").click()]);
  assert.equal(big.status(), 413);
  await page.waitForLoadState("load");
  assert.match(await page.textContent("body"), /grande demais/);

  // 7. A forged anti-CSRF token: refused.
  await page.goto(`${base}/painel/conexoes`);
  assert.match(await page.textContent("#conexao-ipe-ze"), /2 arquivos importados/, "nothing written by the refusals");
  await page.locator("form[action$='/painel/conexoes'] input[name=csrf]").evaluate((i) => (i.value = "forjado"));
  await page.fill("#key", "forjada");
  await page.fill("#institution", "X");
  const [forged] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${base}/painel/conexoes` && r.request().method() === "POST"),
    page.click("form[action$='/painel/conexoes'] button[type=submit]"),
  ]);
  assert.equal(forged.status(), 403);
  assert.match(await page.textContent("[role=alert]"), /marca de segurança/);

  // 8. A cross-site POST (a page of another origin posting to the panel): refused.
  const evil = await ctx.newPage();
  await evil.setContent(
    `<form method="post" action="${base}/painel/pessoas"><input name="csrf" value="x"><input name="key" value="invasor"><input name="name" value="Invasor"><button>ir</button></form>`,
  );
  const [cross] = await Promise.all([evil.waitForResponse((r) => r.url() === `${base}/painel/pessoas`), evil.click("button")]);
  assert.equal(cross.status(), 403);
  // Closed only once its navigation has loaded: closing it mid-navigation can hang Chromium's close.
  await evil.waitForLoadState("load");
  await evil.close();
  await page.goto(`${base}/painel/pessoas`);
  assert.doesNotMatch(await page.textContent("body"), /invasor/);
  await page.goto(`${base}/painel/conexoes`);
  assert.doesNotMatch(await page.textContent("body"), /forjada/);

  // 9. Coverage at a glance.
  await page.goto(`${base}/painel/cobertura`);
  const account = page.locator(".conta", { hasText: "conta corrente 4242-1" });
  assert.match(await account.textContent(), /Coberto: 01\/08\/2026 a 15\/09\/2026/);
  assert.match(await account.textContent(), /Lacunas: nenhuma/);
  assert.match(await account.textContent(), /Dia de referência: 15\/09\/2026/);
  assert.match(await page.textContent("body"), /Cobertura (completa|incompleta):/);
  assert.doesNotMatch(await page.textContent("body"), /partial:/);

  // 9b. A categorisation rule written on the rules page, reached from the space: it counts and
  // samples what it categorises, and the page fits a phone's width and a desktop's.
  await page.goto(`${base}/painel/espacos`);
  await Promise.all([page.waitForURL(/\/painel\/regras\?espaco=casa$/), page.click("a[href$='/painel/regras?espaco=casa']")]);
  await page.fill("#nova-text", "compra a");
  await page.selectOption("#nova-category", "Mercado");
  await Promise.all([page.waitForURL(/feito=regra-criada/), page.click("form:has(#nova-text) button[type=submit]")]);
  assert.match(await page.textContent("[role=status]"), /3 movimentos mudaram de categoria/);
  const rule = page.locator(".regra").first();
  assert.match(await rule.textContent(), /Categoriza 3 movimentos agora/);
  assert.match(await rule.textContent(), /COMPRA A1/);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await rule.locator("summary").first().click();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `the rules page fits ${width} px`);
    await rule.locator("summary").first().click();
  }

  // 10. An assistant token, used over MCP.
  await page.goto(`${base}/painel/assistentes`);
  await page.fill("#name", hostile("Claude e2e"));
  await submit(page.locator("form[action$='/painel/assistentes']"));
  token = (await page.textContent(".segredo code")).trim();
  assert.match(token, /^cad_[A-Za-z0-9_-]{43}$/);
  writeFileSync(join(work, "token"), token);
  const client = new Client({ name: "caderninho-e2e-panel", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const accounts = await client.callTool({ name: "caderninho_accounts", arguments: { person: "ze" } });
  assert.equal(accounts.isError ?? false, false, JSON.stringify(accounts));
  assert.deepEqual(accounts.structuredContent.accounts.map((a) => a.id), ["ipe-ze:4242-1"]);
  const trns = await client.callTool({ name: "caderninho_transactions", arguments: { accounts: ["ipe-ze:4242-1"] } });
  assert.equal(trns.isError ?? false, false, JSON.stringify(trns));
  assert.equal(trns.structuredContent.transactions.length, 5, "3 + 2 new, the 2 repeated ones once");
  await client.close();

  // 11. Revoked: the next request gets 401.
  await page.goto(`${base}/painel/assistentes`);
  const item = page.locator(".item", { hasText: "Claude e2e" });
  await Promise.all([page.waitForURL(/feito=assistente-revogado/), item.locator("form[action$='/revogar'] button").click()]);
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } };
  const after = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(init),
  });
  assert.equal(after.status, 401);

  // The audit log tells it all, without a secret.
  await page.goto(`${base}/painel/registro`);
  const log = await page.textContent("body");
  for (const want of [/Conexão "ipe-ze" adicionada/, /Extrato "fim-agosto.ofx" importado na conexão "ipe-ze": 2 transações novas, 2 já importadas/, /revogado/]) {
    assert.match(log, want);
  }
  assert.ok(!log.includes(token) && !log.includes(credential), "no secret in the audit log");
  assert.deepEqual(problems, [], "no CSP violation or dialog");
} finally {
  await browser.close();
}
console.log("panel e2e: login, person, connection, uploads with counts, coverage, a rule, token over MCP, revocation and hostile input passed in Chromium");
