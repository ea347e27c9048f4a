WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_nome", '') AS g0, SUM(e.m0) AS m0, SUM(e.m1) AS m1 FROM (SELECT t0."c_produto_id" AS k0_0, SUM(CASE WHEN (t0."c_situacao" = ?2) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?1 - t0."c_desconto")),
  0) END) AS m0, COUNT(CASE WHEN (t0."c_data_pedido" >= ?3) THEN t0."c_id" END) AS m1 FROM "t_pedidos" t0 GROUP BY +t0."c_produto_id") e LEFT JOIN "t_produtos" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, CAST(m0 AS REAL) AS o1, CAST(COALESCE(m1, 0) AS REAL) AS o2 FROM r WHERE CASE WHEN ABS(CAST(m0 AS REAL)) < 1 THEN ROUND(CAST(m0 AS REAL),
  12) ELSE ROUND(CAST(m0 AS REAL),
  6) END > ?4)
SELECT o0, o1, o2, z.a0 AS n_total, CAST(z.a1 AS REAL) AS s0, CAST(COALESCE(z.a2, 0) AS REAL) AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?5
-- args: [1 Ativa 2026-09-05 300 10]
