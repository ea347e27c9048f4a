package lumo

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// addResources publishes the catalogue and each app's description as text resources; they carry the
// same texts as search_catalog without terms and get_app.
func (s *Service) addResources(srv *mcp.Server) {
	srv.AddResource(catalogResource(), s.readCatalog)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: appTemplate, Name: "app", Title: "Descrição de uma Aplicação", MIMEType: "text/plain",
		Description: "A descrição de uma Aplicação: o mesmo texto de get_app.",
	}, s.readApp)
}

func catalogResource() *mcp.Resource {
	return &mcp.Resource{
		URI: "lumo://apps", Name: "apps", Title: "Catálogo de Aplicações", MIMEType: "text/plain",
		Description: "O catálogo do usuário: o mesmo texto de search_catalog sem termos.",
	}
}

func (s *Service) readCatalog(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	u, err := s.userOf(ctx, req.Extra)
	if err != nil {
		return nil, s.internal(ctx, req.Params.URI, err)
	}
	apps, err := s.DB.VisibleApps(ctx, u)
	if err != nil {
		return nil, s.internal(ctx, req.Params.URI, err)
	}
	// Only the text: the structured lists it never shows grow with the square of same-named apps.
	return textResource(req.Params.URI, catalogText(apps, semantic.FoldedOf(apps), 0, len(apps))), nil
}

func (s *Service) readApp(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, err := strconv.ParseInt(strings.TrimPrefix(uri, "lumo://app/"), 10, 64)
	if err != nil || id < 1 || !strings.HasPrefix(uri, "lumo://app/") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	a, err := s.visibleApp(ctx, req.Extra, id)
	var te *mcpserver.ToolError
	if errors.As(err, &te) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, s.internal(ctx, uri, err)
	}
	return textResource(uri, getAppText(outGetApp(a))), nil
}

// resourceKind names a resource without its id: lumo://apps or lumo://app/{appId}.
func resourceKind(uri string) string {
	if strings.HasPrefix(uri, "lumo://app/") {
		return "lumo://app/{appId}"
	}
	return "lumo://apps"
}

// internal logs a failure and gives the client only a generic JSON-RPC error.
func (s *Service) internal(ctx context.Context, uri string, err error) error {
	s.Log.ErrorContext(ctx, "reading a resource", "resource", resourceKind(uri), telemetry.ErrAttr(err))
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: mcpserver.InternalErrorText}
}

func textResource(uri, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}
}
