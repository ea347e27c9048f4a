WITH r AS MATERIALIZED (SELECT NULLIF(t2."c_nome", '') AS g0, SUM(t1."c_custo") AS m0, SUM(t0."c_qtd") AS m1 FROM "t_itens" t0 LEFT JOIN "t_pecafornecedor" t1 ON t0."c_peca_id" = t1."c_peca_id" AND t0."c_fornecedor_id" = t1."c_fornecedor_id" LEFT JOIN "t_fornecedores" t2 ON t0."c_fornecedor_id" = t2."c_id" GROUP BY NULLIF(t2."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, m1 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?1
-- args: [10]
