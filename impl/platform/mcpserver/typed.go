package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-faster/jx"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Encoder is what ogen generates for every output model: it writes itself as JSON.
type Encoder interface{ Encode(e *jx.Encoder) }

// TypedCall answers one tool call with the generated models: it takes the decoded input and
// returns the output model and the renderer of its text for the model, or an error (a
// *ToolError for one the caller can fix). It runs the same code as the tool's method of the
// generated Handler interface, which returns the output alone.
type TypedCall[In any, Out Encoder] func(ctx context.Context, in In) (Out, func() string, error)

// Typed binds a TypedCall as a Handler: the arguments, which have passed the input schema, are
// decoded into the generated input type (PIn, a pointer to In) and the output is written by its
// generated encoder. The call's context carries the request (see Request).
func Typed[In any, PIn interface {
	*In
	Decode(d *jx.Decoder) error
}, Out Encoder](call TypedCall[PIn, Out]) Handler {
	return func(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (Reply, error) {
		in := PIn(new(In))
		if err := in.Decode(jx.DecodeBytes(args)); err != nil {
			return Reply{}, fmt.Errorf("decoding validated arguments: %w", err)
		}
		out, text, err := call(context.WithValue(ctx, requestKey{}, req), in)
		if err != nil {
			return Reply{}, err
		}
		e := jx.GetEncoder()
		defer jx.PutEncoder(e)
		out.Encode(e)
		return Reply{Text: text(), JSON: append([]byte(nil), e.Bytes()...)}, nil
	}
}

type requestKey struct{}

// Request is the MCP request a Typed call answers, nil outside one (a call through the
// generated REST server).
func Request(ctx context.Context) *mcp.CallToolRequest {
	req, _ := ctx.Value(requestKey{}).(*mcp.CallToolRequest)
	return req
}
