WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_segmento", '') AS g0, SUM(t0."c_valor") AS m0, COUNT(DISTINCT t0."c_id") AS m1, GROUPING(NULLIF(t1."c_segmento", '')) AS gt FROM "t_pedidos" t0 LEFT JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" WHERE EXISTS (SELECT 1 FROM "t_itens" s1_0 LEFT JOIN "t_pedidos" s1_1 ON s1_0."c_pedido_id" = s1_1."c_id" LEFT JOIN "t_pecas" s1_2 ON s1_0."c_peca_id" = s1_2."c_id" WHERE s1_1."c_cliente_id" = t1."c_id" AND COALESCE(s1_2."c_tipo" <> '' AND s1_2."c_tipo_f" LIKE $1 ESCAPE '\', 1 = 0)) AND (t0."c_situacao" = $2) GROUP BY GROUPING SETS ((NULLIF(t1."c_segmento", '')),
  ())),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, COALESCE(m1, 0) AS o2 FROM r WHERE gt = 0)
SELECT o0, o1, o2, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT SUM(m0) FROM f) AS s0, (SELECT m1 FROM r WHERE gt = 1) AS s1 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT $3
-- args: [%parafuso% Ativa 10]
