package lumo

import (
	"net/http"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/schemas"
)

// NewREST is the REST mirror of the tools: POST /tools/<tool>, ogen's generated server over the
// Service (the same methods the MCP tools run), with the argument checks, concurrency bound and
// answer bound of a server NewServer builds with opts. maxBody bounds a request body (0: the
// default); metrics may be nil. The caller mounts it at restserver.Prefix behind the bearer check
// and the rate limits.
func NewREST(svc *Service, opts Options, maxBody int64, metrics *telemetry.Metrics) (http.Handler, error) {
	set, err := schemacheck.Compile(schemas.FS, "lumo")
	if err != nil {
		return nil, err
	}
	m := &restserver.Mirror{Binder: svc.binder(set, opts), MaxBody: maxBody, Log: svc.Log, Metrics: metrics}
	for _, t := range svc.Tools() {
		m.Tools = append(m.Tools, t.Name)
	}
	o := m.Options()
	api, err := lumoapi.NewServer(svc, lumoapi.WithErrorHandler(o.ErrorHandler), lumoapi.WithNotFound(o.NotFound),
		lumoapi.WithMethodNotAllowed(o.MethodNotAllowed))
	if err != nil {
		return nil, err
	}
	m.API = api
	return m, nil
}
