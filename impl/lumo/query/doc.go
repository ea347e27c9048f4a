// Package query compiles a validated lumo query request into a plan over an app's model, and
// the plan into one SQL statement (rows, capped total and summary) of an engine.
//
// The two meet at the plan. Analyze, PlanQuery and UseRollups decide what is computed (blocks,
// joins, filters, which rollup answers a block) and never consult the engine, so the planner's
// rules (rollup choice, multi-fact blocks, blanks, folding, formulas) hold alike on every engine
// and are tested once. A Renderer decides only how the plan is spelled: the statement's shape
// is shared (sql.go, rollup_sql.go), and what an engine writes its own way sits behind the small
// engine interface, one type per engine (render_*.go), so that another engine is one more type
// rather than branches through the compiler. The renderer stays in this package because it
// reads the plan's internals (join aliases, measure partials), which a package boundary would
// turn into API.
package query
