// End-to-end check with the official TypeScript MCP client: lists the tools, calls each of them and reads
// the resources, over stdio (spawning the binary) or Streamable HTTP (with a bearer token).
// The client validates every structuredContent against the tool's published outputSchema.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, who, expectedApps] = process.argv.slice(2);
const transport =
  mode === "http"
    ? new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: { Authorization: `Bearer ${who}` } } })
    : new StdioClientTransport({ command: target, args: ["serve", "--user", who], env: process.env, stderr: "inherit" });

const client = new Client({ name: "lumo-e2e", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name).sort(), ["get_app", "query", "search_catalog", "search_values"]);
for (const t of tools) {
  assert.equal(t.annotations.readOnlyHint, true, t.name);
  assert.equal(t.annotations.openWorldHint, false, t.name);
  assert.ok(t.outputSchema, `${t.name} has an output schema`);
}

const catalog = await client.callTool({ name: "search_catalog", arguments: {} });
assert.equal(catalog.isError ?? false, false, JSON.stringify(catalog));
assert.equal(catalog.structuredContent.apps.length, Number(expectedApps));
assert.match(catalog.content[0].text, /^Catálogo: /);

const appId = catalog.structuredContent.apps[0].id;
const app = await client.callTool({ name: "get_app", arguments: { appId } });
assert.equal(app.isError ?? false, false, JSON.stringify(app));
assert.ok(app.structuredContent.tables.length > 0);

const textColumn = app.structuredContent.tables.flatMap((t) => t.columns).find((c) => c.type === "string");
const values = await client.callTool({ name: "search_values", arguments: { appId, ref: textColumn.ref } });
assert.equal(values.isError ?? false, false, JSON.stringify(values));
assert.equal(values.structuredContent.mode, "distinct");
assert.ok(values.structuredContent.totalDistinct >= values.structuredContent.values.length);
assert.ok(values.content[0].text.startsWith(`${textColumn.ref} `), values.content[0].text);
const found = await client.callTool({ name: "search_values", arguments: { appId, contains: "a" } });
assert.equal(found.isError ?? false, false, JSON.stringify(found));
assert.equal(found.structuredContent.mode, "search");
assert.ok(found.structuredContent.columnsSearched <= found.structuredContent.columnsTotal);

const search = await client.callTool({ name: "search_catalog", arguments: { terms: "faturamento" } });
assert.ok(search.structuredContent.total > 0);

// A query whose structuredContent the client validates against the published output schema.
if (Number(expectedApps) === 3) {
  const vendas = catalog.structuredContent.apps.find((a) => a.desk === "Comercial" && a.name === "Vendas");
  const q = await client.callTool({
    name: "query",
    arguments: {
      appId: vendas.id,
      fields: [{ ref: "Lojas.Loja" }, { ref: "Vendas.Valor da venda", agg: "sum" }],
      filters: [{ ref: "Vendas.Situação", op: "=", value: "Ativa" }],
      orderBy: [{ ref: "Vendas.Valor da venda", agg: "sum", dir: "desc" }],
      limit: 3,
    },
  });
  assert.equal(q.isError ?? false, false, JSON.stringify(q));
  assert.equal(q.structuredContent.rowCount, 3);
  assert.equal(q.structuredContent.truncated, true);
  assert.match(q.content[0].text, /Linhas: 3 de 7; as outras 4 existem e não estão aqui\./);
}

const bad = await client.callTool({ name: "get_app", arguments: {} });
assert.equal(bad.isError, true);
assert.match(bad.content[0].text, /appId: campo obrigatório ausente/);

const { resources } = await client.listResources();
// Per user: the catalogue, then one resource per app the caller sees, titled with its name.
assert.equal(resources[0].uri, "lumo://apps");
assert.deepEqual(resources.slice(1).map((r) => r.uri).sort(),
  catalog.structuredContent.apps.map((a) => `lumo://app/${a.id}`).sort());
for (const a of catalog.structuredContent.apps) {
  assert.equal(resources.find((r) => r.uri === `lumo://app/${a.id}`).title, a.name);
}
const { resourceTemplates } = await client.listResourceTemplates();
assert.deepEqual(resourceTemplates.map((r) => r.uriTemplate), ["lumo://app/{appId}"]);
const res = await client.readResource({ uri: "lumo://apps" });
assert.equal(res.contents[0].text, catalog.content[0].text);

await client.close();
console.log(`e2e ${mode}: ok (${tools.length} tools, ${expectedApps} apps, get_app ${appId}, search_values ${textColumn.ref})`);
