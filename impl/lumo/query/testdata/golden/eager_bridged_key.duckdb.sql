WITH r AS MATERIALIZED (SELECT t2."c_id" AS g0, NULLIF(t2."c_nome", '') AS g1, e.m0 AS m0 FROM (SELECT t0."c_fornecedor_id" AS k1_0, SUM(t0."c_valor") AS m0 FROM "t_itens" t0 GROUP BY t0."c_fornecedor_id") e LEFT JOIN "t_fornecedores" t2 ON e.k1_0 = t2."c_id"),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $1
-- args: [10]
