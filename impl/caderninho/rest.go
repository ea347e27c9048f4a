package caderninho

import (
	"net/http"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/schemas"
)

// NewREST is the REST mirror of the tools: POST /tools/<tool>, ogen's generated server over the
// Service (the methods the MCP tools run), with the argument checks and answer bound of a server
// NewServer builds with opts; with ReadOnly the writes answer 404, as they are not listed over
// MCP. maxBody bounds a request body (0: the default); metrics may be nil. The caller mounts it at
// restserver.Prefix behind the bearer check.
func NewREST(svc *Service, opts Options, maxBody int64, metrics *telemetry.Metrics) (http.Handler, error) {
	set, err := schemacheck.Compile(schemas.FS, "caderninho")
	if err != nil {
		return nil, err
	}
	if svc.schemas == nil {
		svc.schemas = set
	}
	m := &restserver.Mirror{Binder: svc.binder(set, opts), MaxBody: maxBody, Log: svc.Log, Metrics: metrics}
	for _, t := range svc.served(opts) {
		m.Tools = append(m.Tools, t.Name)
	}
	o := m.Options()
	api, err := caderninhoapi.NewServer(svc, caderninhoapi.WithErrorHandler(o.ErrorHandler), caderninhoapi.WithNotFound(o.NotFound),
		caderninhoapi.WithMethodNotAllowed(o.MethodNotAllowed))
	if err != nil {
		return nil, err
	}
	m.API = api
	return m, nil
}
