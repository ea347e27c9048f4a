WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_nome", '') AS g0, SUM(e.m0) AS m0, SUM(e.m1) AS m1 FROM (SELECT t0."c_produto_id" AS k0_0, SUM(CASE WHEN (t0."c_situacao" = CAST($2 AS TEXT)) THEN ((t0."c_preco" * t0."c_qtd") * (CAST($1 AS DECIMAL(1, 0)) - t0."c_desconto")) END) AS m0, COUNT(CASE WHEN (t0."c_data_pedido" >= CAST($3 AS DATE)) THEN t0."c_id" END) AS m1 FROM "t_pedidos" t0 GROUP BY t0."c_produto_id") e LEFT JOIN "t_produtos" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, CAST(m0 AS DOUBLE) AS o1, CAST(COALESCE(m1, 0) AS DOUBLE) AS o2 FROM r WHERE CASE WHEN ABS(CAST(m0 AS DOUBLE)) < 1 THEN ROUND(CAST(m0 AS DOUBLE),
  12) ELSE ROUND(CAST(m0 AS DOUBLE),
  6) END > CAST($4 AS DECIMAL(3, 0)))
SELECT o0, o1, o2, z.a0 AS n_total, CAST(z.a1 AS DOUBLE) AS s0, CAST(COALESCE(z.a2, 0) AS DOUBLE) AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $5
-- args: [1 Ativa 2026-09-05 300 10]
