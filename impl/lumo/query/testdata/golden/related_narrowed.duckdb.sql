WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_nome", '') AS g0, (CASE WHEN t1."c_id" IS NOT NULL THEN s1_g.v END) AS g1, SUM(t0."c_qtd") AS m0 FROM "t_itens" t0 JOIN "t_pecas" t1 ON t0."c_peca_id" = t1."c_id" LEFT JOIN (SELECT s1_0."c_peca_id" AS k0, MIN(s1_0."c_custo") AS v FROM "t_pecafornecedor" s1_0 JOIN (SELECT DISTINCT s2_0."c_id" AS n0 FROM "t_pecas" s2_0 WHERE (contains(s2_0."c_tipo_f", $1))) s2_n ON s1_0."c_peca_id" = s2_n.n0 GROUP BY s1_0."c_peca_id") s1_g ON s1_g.k0 = t1."c_id" WHERE (contains(t1."c_tipo_f", $2)) GROUP BY NULLIF(t1."c_nome", ''),
  (CASE WHEN t1."c_id" IS NOT NULL THEN s1_g.v END)),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $3
-- args: [parafuso parafuso 10]
