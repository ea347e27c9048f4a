package workspace

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const pgApp = `name: ERP
tables:
  - label: Clientes
    name: clientes
    kind: dimension
    postgres: {database: erp, table: cadastro.clientes}
    columns:
      - {name: ID, label: Id, type: number, role: key}
  - label: Pedidos
    name: pedidos
    kind: fact
    postgres: {database: erp, query: "SELECT id FROM pedidos"}
    columns:
      - {name: ID, label: Pedido, type: number, role: key}
`

func pgWorkspace(databases, app string) fstest.MapFS {
	return fstest.MapFS{
		"workspace.yaml": {Data: []byte(databases + `tenants:
  - key: t1
    name: T1
    apps: [{key: erp, source: apps/erp}]
`)},
		"apps/erp/app.yaml": {Data: []byte(app)},
	}
}

// TestLoadDatabases: a table's postgres names a database of workspace.yaml, which keeps its DSN
// and the name of its password variable, never a password.
func TestLoadDatabases(t *testing.T) {
	ws, err := Load(pgWorkspace(`databases:
  - {name: erp, dsn: "postgres://leitor@db.interno:5432/erp?sslmode=require", passwordEnv: ERP_SENHA}
`, pgApp), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := ws.Tenants[0].Apps[0].Source
	if len(src.Postgres) != 2 || src.Files[0] != "" || src.Files[1] != "" {
		t.Fatalf("sources %+v, files %q", src.Postgres, src.Files)
	}
	db := src.Postgres[0].Database
	if db != ws.Databases[0] || db.PasswordEnv != "ERP_SENHA" || db.TimeZone != DefaultTimeZone {
		t.Errorf("database %+v", db)
	}
	if got := src.Postgres[0].Where() + " | " + src.Postgres[1].Where(); got != "banco erp, tabela cadastro.clientes | banco erp, consulta" {
		t.Errorf("where: %s", got)
	}
}

func TestLoadDatabasesRefused(t *testing.T) {
	for name, c := range map[string]struct {
		databases, app string
		want           []string
	}{
		"a password in the DSN": {`databases:
  - {name: erp, dsn: "postgres://leitor:segredo@db:5432/erp"}
`, pgApp, []string{
			`workspace.yaml:2: databases[0].dsn: o dsn traz a senha, que ficaria no arquivo; tire-a do dsn e ponha-a numa variável de ambiente nomeada em passwordEnv`,
			`apps/erp/app.yaml:6: tables[0].postgres.database: o banco "erp" não está em databases do workspace.yaml; não há bancos definidos`,
			`apps/erp/app.yaml:12: tables[1].postgres.database: o banco "erp" não está em databases do workspace.yaml; não há bancos definidos`,
		}},
		"a password as a parameter": {`databases:
  - {name: erp, dsn: "postgres://leitor@db:5432/erp?sslmode=require&password=segredo"}
`, pgApp, []string{
			`workspace.yaml:2: databases[0].dsn: o dsn traz a senha, que ficaria no arquivo; tire-a do dsn e ponha-a numa variável de ambiente nomeada em passwordEnv`,
			`apps/erp/app.yaml:6: tables[0].postgres.database: o banco "erp" não está em databases do workspace.yaml; não há bancos definidos`,
			`apps/erp/app.yaml:12: tables[1].postgres.database: o banco "erp" não está em databases do workspace.yaml; não há bancos definidos`,
		}},
		"a key=value DSN, never repeated": {`databases:
  - {name: erp, dsn: "host=db user=leitor password=segredo dbname=erp"}
`, pgApp, []string{
			`workspace.yaml:2: databases[0].dsn: o valor não está no formato esperado (^postgres(ql)?://).`,
		}},
		"no database in the DSN, and a name used twice": {`databases:
  - {name: erp, dsn: "postgres://leitor@db:5432"}
  - {name: erp2, dsn: "postgres://leitor@db:5432/erp"}
  - {name: erp2, dsn: "postgres://leitor@db:5432/erp"}
`, strings.ReplaceAll(pgApp, "database: erp,", "database: erp2,"), []string{
			`workspace.yaml:2: databases[0].dsn: o dsn precisa dizer o host e o banco: postgres://usuario@host:5432/banco`,
			`workspace.yaml:4: databases[2].name: o banco "erp2" já foi declarado; cada banco precisa de um nome próprio`,
		}},
		"an unknown database": {`databases:
  - {name: erp, dsn: "postgres://leitor@db:5432/erp"}
`, strings.Replace(pgApp, "database: erp,", "database: epr,", 1), []string{
			`apps/erp/app.yaml:6: tables[0].postgres.database: o banco "epr" não está em databases do workspace.yaml; bancos parecidos: erp`,
		}},
		"csv, loadedAt and a semicolon with postgres": {`databases:
  - {name: erp, dsn: "postgres://leitor@db:5432/erp"}
`, strings.Replace(strings.Replace(pgApp, `    postgres: {database: erp, table: cadastro.clientes}`, `    postgres: {database: erp, table: cadastro.clientes}
    csv: {delimiter: ";"}
    loadedAt: "2026-01-01T00:00:00Z"`, 1), `FROM pedidos"`, `FROM pedidos;"`, 1), []string{
			`apps/erp/app.yaml:7: tables[0].csv: a tabela vem do banco em postgres, então csv não se aplica (a hora da leitura é o loadedAt); remova csv`,
			`apps/erp/app.yaml:8: tables[0].loadedAt: a tabela vem do banco em postgres, então loadedAt não se aplica (a hora da leitura é o loadedAt); remova loadedAt`,
			`apps/erp/app.yaml:14: tables[1].postgres.query: a consulta termina em ponto e vírgula; tire-o (ela é lida como um SELECT só)`,
		}},
		"a table name that is not an identifier": {`databases:
  - {name: erp, dsn: "postgres://leitor@db:5432/erp"}
`, strings.Replace(pgApp, "table: cadastro.clientes", `table: "clientes; DROP TABLE x"`, 1), []string{
			`apps/erp/app.yaml:6: tables[0].postgres.table: `,
		}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load(pgWorkspace(c.databases, c.app), "workspace.yaml")
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Load error = %v, want Errors", err)
			}
			var got []string
			for i, e := range errs {
				s := e.Error()
				if i < len(c.want) && strings.HasSuffix(c.want[i], ": ") && strings.HasPrefix(s, c.want[i]) {
					s = c.want[i] // only where it is matters
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
