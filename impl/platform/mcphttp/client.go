// Package mcphttp is a minimal MCP client over Streamable HTTP for load and benchmark tools.
package mcphttp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Client is a minimal Streamable HTTP MCP client for load tools: it sees every HTTP status, and it
// spends far less CPU per call than the go-sdk client (no schema caches, one decode), which matters
// when the client shares the cores of the server it measures.
type Client struct {
	url, token, session string
	http                *http.Client
	id                  atomic.Int64
}

// RateLimited is Connect's error when the server refused the initialize with 429.
type RateLimited struct{ RetryAfter string }

func (e *RateLimited) Error() string {
	return "initialize refused with 429, Retry-After " + e.RetryAfter
}

// Connect opens a session at url (token: a bearer token, or "") as client name.
func Connect(url, token, name string) (*Client, error) {
	c := &Client{url: url, token: token, http: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
	out := c.rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": name, "version": "1"}}, true)
	if out.Kind != "" {
		return nil, errors.New(out.Kind)
	}
	if out.Status == http.StatusTooManyRequests {
		return nil, &RateLimited{RetryAfter: out.RetryAfter}
	}
	if out := c.rpc("notifications/initialized", map[string]any{}, false); out.Kind != "" {
		return nil, errors.New(out.Kind)
	}
	return c, nil
}

// CloseIdleConnections closes the client's kept-alive connections, leaving its session open on
// the server (no DELETE), as a client that goes away without closing it does.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Outcome is what one request got.
type Outcome struct {
	Status     int
	RetryAfter string
	Kind       string // "" = a successful result; else what went wrong
	Result     json.RawMessage
}

// Call runs a tool; a tool error is an Outcome whose Kind names its code.
func (c *Client) Call(tool string, args map[string]any) Outcome {
	out := c.rpc("tools/call", map[string]any{"name": tool, "arguments": args}, true)
	if out.Kind != "" {
		return out
	}
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil {
		out.Kind = "undecodable result"
	} else if res.IsError {
		out.Kind = "tool error " + res.StructuredContent.Error.Code
	}
	return out
}

// Structured runs a tool and decodes its structuredContent into v.
func (c *Client) Structured(tool string, args map[string]any, v any) error {
	out := c.Call(tool, args)
	if out.Kind != "" {
		return errors.New(out.Kind)
	}
	var res struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return err
	}
	return json.Unmarshal(res.StructuredContent, v)
}

func (c *Client) rpc(method string, params any, request bool) Outcome {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	id := c.id.Add(1)
	if request {
		msg["id"] = id
	}
	body, _ := json.Marshal(msg)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, c.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return Outcome{Kind: "transport: " + err.Error()}
	}
	defer resp.Body.Close()
	out := Outcome{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		c.session = sid
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		io.Copy(io.Discard, resp.Body)
		return out
	}
	if !request {
		io.Copy(io.Discard, resp.Body)
		if resp.StatusCode/100 != 2 {
			out.Kind = fmt.Sprintf("HTTP %d", resp.StatusCode)
		}
		return out
	}
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		out.Kind = fmt.Sprintf("HTTP %d", resp.StatusCode)
		return out
	}
	var payload []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
				var probe struct {
					ID json.RawMessage `json:"id"`
				}
				if json.Unmarshal([]byte(line), &probe) == nil && string(probe.ID) == fmt.Sprint(id) {
					payload = []byte(line)
					break
				}
			}
		}
	} else {
		payload, _ = io.ReadAll(resp.Body)
	}
	var rpc struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(payload, &rpc); err != nil {
		out.Kind = "no JSON-RPC response"
		return out
	}
	if rpc.Error != nil {
		out.Kind = fmt.Sprintf("JSON-RPC error %d", rpc.Error.Code)
		return out
	}
	out.Result = rpc.Result
	return out
}
