WITH r AS MATERIALIZED (SELECT NULLIF(t2."c_nome", '') AS g0, NULLIF(t4."c_nome", '') AS g1, SUM(t0."c_valor") AS m0 FROM "t_itens" t0 LEFT JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" LEFT JOIN "t_nacoes" t2 ON t1."c_nacao_id" = t2."c_id" JOIN "t_fornecedores" t3 ON t0."c_fornecedor_id" = t3."c_id" JOIN "t_nacoes" t4 ON t3."c_nacao_id" = t4."c_id" WHERE (t4."c_regiao" = $1) GROUP BY NULLIF(t2."c_nome", ''),
  NULLIF(t4."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $2
-- args: [Europa 10]
