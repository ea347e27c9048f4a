WITH r AS MATERIALIZED (SELECT NULLIF((CASE WHEN COALESCE(t0."c_tipo" <> '' AND t0."c_tipo_f" LIKE ?1 ESCAPE '\', 1 = 0) THEN ?2 ELSE ?3 END),
  '') AS g0, SUM(ROUND((CASE WHEN (NULLIF(t0."c_prioridade", '') IN (?4, ?5)) THEN ?6 ELSE ?7 END),
  0)) AS m0, SUM(CASE WHEN COALESCE(t0."c_tipo" <> '' AND t0."c_tipo_f" LIKE ?8 ESCAPE '\', 1 = 0) THEN t0."c_valor" END) AS m1, COUNT(CASE WHEN (NULLIF(t0."c_prioridade", '') IN (?9, ?10)) THEN t0."c_id" END) AS m2, COUNT(CASE WHEN (NOT COALESCE(t0."c_tipo" <> '' AND t0."c_tipo_f" LIKE ?11 ESCAPE '\', 1 = 0)) THEN t0."c_id" END) AS m3 FROM "t_pedidos" t0 WHERE ((CASE WHEN COALESCE(t0."c_tipo" <> '' AND t0."c_tipo_f" LIKE ?12 ESCAPE '\', 1 = 0) THEN ?13 ELSE ?14 END) <> '' AND (CASE WHEN COALESCE(t0."c_tipo" <> '' AND t0."c_tipo_f" LIKE ?12 ESCAPE '\', 1 = 0) THEN ?13 ELSE ?14 END) LIKE ?15 ESCAPE '\') GROUP BY NULLIF((CASE WHEN COALESCE(t0."c_tipo" <> '' AND t0."c_tipo_f" LIKE ?1 ESCAPE '\', 1 = 0) THEN ?2 ELSE ?3 END),
  '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, CAST(m1 AS REAL) AS o2, CAST(COALESCE(m2, 0) AS REAL) AS o3, CAST(COALESCE(m3, 0) AS REAL) AS o4 FROM r)
SELECT o0, o1, o2, o3, o4, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT SUM(m0) FROM f) AS s0, CAST((SELECT SUM(m1) FROM f) AS REAL) AS s1, CAST((SELECT COALESCE(SUM(m2),
  0) FROM f) AS REAL) AS s2, CAST((SELECT COALESCE(SUM(m3),
  0) FROM f) AS REAL) AS s3 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT ?16
-- args: [promo% Sim Não 1-URGENTE 2-ALTA 1 0 promo% 1-URGENTE 2-ALTA promo% promo% sim nao s% 10]
