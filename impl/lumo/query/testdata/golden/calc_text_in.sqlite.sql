WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_nome", '') AS g0, SUM(t0."c_valor") AS m0 FROM "t_itens" t0 LEFT JOIN "t_fornecedores" t1 ON t0."c_fornecedor_id" = t1."c_id" LEFT JOIN "t_nacoes" t2 ON t1."c_nacao_id" = t2."c_id" WHERE (t2."c_regiao" IN (?1, ?2)) AND (NULLIF(t2."c_regiao", '') IS NULL OR NOT (NULLIF(t2."c_regiao", '') = ?3)) GROUP BY NULLIF(t1."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?4
-- args: [Europa Ásia África 10]
