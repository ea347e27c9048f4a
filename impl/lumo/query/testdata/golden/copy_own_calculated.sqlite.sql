WITH r AS MATERIALIZED (SELECT NULLIF(t2."c_nome", '') AS g0, ROUND((CASE WHEN t2."c_id" IS NOT NULL THEN s1_g.v END),
  0) AS g1, SUM(ROUND((CASE WHEN t2."c_id" IS NOT NULL THEN COALESCE(s2_g.v, 0) END),
  0)) AS m0, SUM(t0."c_qtd") AS m1 FROM "t_itens" t0 LEFT JOIN "t_pecafornecedor" t1 ON t0."c_peca_id" = t1."c_peca_id" AND t0."c_fornecedor_id" = t1."c_fornecedor_id" LEFT JOIN "t_fornecedores" t2 ON t1."c_fornecedor_id" = t2."c_id" LEFT JOIN (SELECT s1_0."c_fornecedor_id" AS k0, MIN(s1_0."c_custo") AS v FROM "t_pecafornecedor" s1_0 GROUP BY +s1_0."c_fornecedor_id") s1_g ON s1_g.k0 = t2."c_id" LEFT JOIN (SELECT s2_0."c_fornecedor_id" AS k0, SUM(s2_0."c_estoque") AS v FROM "t_pecafornecedor" s2_0 GROUP BY +s2_0."c_fornecedor_id") s2_g ON s2_g.k0 = t2."c_id" WHERE ROUND((CASE WHEN t2."c_id" IS NOT NULL THEN s1_g.v END),
  0) < ?1 GROUP BY NULLIF(t2."c_nome", ''),
  ROUND((CASE WHEN t2."c_id" IS NOT NULL THEN s1_g.v END),
  0)),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2, m1 AS o3 FROM r)
SELECT o0, o1, o2, o3, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT ?2
-- args: [5 10]
