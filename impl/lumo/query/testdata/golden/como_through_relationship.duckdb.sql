WITH r AS MATERIALIZED (SELECT NULLIF(t2."c_nome", '') AS g0, SUM(CASE WHEN COALESCE(contains(t1."c_tipo_f", $1),
  1 = 0) THEN t0."c_qtd" END) AS m0 FROM "t_itens" t0 LEFT JOIN "t_pecas" t1 ON t0."c_peca_id" = t1."c_id" LEFT JOIN "t_fornecedores" t2 ON t0."c_fornecedor_id" = t2."c_id" GROUP BY NULLIF(t2."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, CAST(m0 AS DOUBLE) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, CAST(z.a1 AS DOUBLE) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $2
-- args: [parafuso 10]
