package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/schemas"
)

// compiledSchemas are the tools' schemas for Call, compiled once per process.
var compiledSchemas = sync.OnceValues(func() (*schemacheck.Set, error) { return schemacheck.Compile(schemas.FS, "caderninho") })

// Call runs one tool for a caller inside this process (the owner's panel) exactly as the MCP
// tools and the REST mirror run it: the same argument checks (UTF-8, numbers, the tool's input
// schema) before the same handler, with its confirmation, idempotency key, revision bump and
// refusals. A refusal is a *mcpserver.ToolError whose message names the field.
func (s *Service) Call(ctx context.Context, tool string, args json.RawMessage) (mcpserver.Reply, error) {
	set := s.schemas
	if set == nil {
		var err error
		if set, err = compiledSchemas(); err != nil {
			return mcpserver.Reply{}, err
		}
	}
	tools := s.Tools()
	i := slices.IndexFunc(tools, func(t mcpserver.Tool) bool { return t.Name == tool })
	if i < 0 {
		return mcpserver.Reply{}, fmt.Errorf("no tool %q", tool)
	}
	checked, te := s.binder(set, Options{}).CheckArguments(tool, args)
	if te != nil {
		return mcpserver.Reply{}, te
	}
	return tools[i].Handler(ctx, nil, checked)
}

// ConditionText says a rule's condition in Portuguese, as the rule tools do: descrição contém
// "UBER", saídas, até R$ 50,00.
func ConditionText(c caderninhoapi.RuleCondition) string { return conditionText(c) }
