package lumo

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// Each session sees its own user's resources: resources/list lists lumo://apps and one
// lumo://app/{appId} per app the user sees. When an import or an admin change moves the import
// counter, the watcher recomputes, per connected session, what its user sees, and tells only the
// sessions whose view changed: notifications/resources/list_changed when the listed apps changed,
// notifications/resources/updated for a subscribed resource whose text changed. go-sdk
// broadcasts both to every session (list_changed) or every subscriber of a URI (updated); the
// sending middleware lets a notification through only to the sessions marked for it, so no user
// learns of another tenant's changes.

// changeCheckEvery is how often the watcher reads the import counter (on PostgreSQL usually
// from memory: see store.Generation).
const changeCheckEvery = time.Second

// maxListedApps is the page size of resources/list.
const maxListedApps = 500

// maxCompletions is the most values completion/complete returns (the protocol's bound).
const maxCompletions = 100

// changes tracks what each session's user saw last.
type changes struct {
	svc *Service
	srv *mcp.Server

	mu       sync.Mutex
	gen      int64 // the import counter at the last check; -1 before the first
	sessions map[*mcp.ServerSession]*sessionView
}

// sessionView is what one session was shown: fingerprints, never the texts.
type sessionView struct {
	user     *store.User
	listed   string            // fingerprint of the listed apps; "" until the session lists
	subs     map[string]string // subscribed URI → fingerprint of its text
	notify   bool              // a list_changed is due to this session
	notifyOn map[string]bool   // URIs whose updated is due to this session
}

// view returns the session's record, creating it with the caller's user.
func (c *changes) view(ctx context.Context, ss *mcp.ServerSession, extra *mcp.RequestExtra) (*sessionView, error) {
	c.mu.Lock()
	v := c.sessions[ss]
	c.mu.Unlock()
	if v != nil {
		return v, nil
	}
	u, err := c.svc.userOf(ctx, extra)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v = c.sessions[ss]; v == nil {
		v = &sessionView{user: u, subs: map[string]string{}, notifyOn: map[string]bool{}}
		c.sessions[ss] = v
	}
	return v, nil
}

// receiving answers resources/list per user and remembers what each session was shown.
func (c *changes) receiving(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "resources/list" {
			return next(ctx, method, req)
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		params, _ := req.GetParams().(*mcp.ListResourcesParams)
		return c.list(ctx, ss, req.GetExtra(), params)
	}
}

func (c *changes) list(ctx context.Context, ss *mcp.ServerSession, extra *mcp.RequestExtra, p *mcp.ListResourcesParams) (*mcp.ListResourcesResult, error) {
	from := 0
	if p != nil && p.Cursor != "" {
		n, err := strconv.Atoi(p.Cursor)
		if err != nil || n < 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "cursor inválido: use o nextCursor da página anterior"}
		}
		from = n
	}
	v, err := c.view(ctx, ss, extra)
	if err != nil {
		return nil, c.svc.internal(ctx, "lumo://apps", err)
	}
	apps, err := c.svc.DB.VisibleApps(ctx, v.user)
	if err != nil {
		return nil, c.svc.internal(ctx, "lumo://apps", err)
	}
	c.mu.Lock()
	v.listed = listFingerprint(apps)
	c.mu.Unlock()
	res := &mcp.ListResourcesResult{}
	if from == 0 {
		res.Resources = append(res.Resources, catalogResource())
	}
	from = min(from, len(apps))
	to := min(from+maxListedApps, len(apps))
	for _, a := range apps[from:to] {
		res.Resources = append(res.Resources, &mcp.Resource{
			URI: appURI(a.ID), Name: a.Name, Title: a.Name, MIMEType: "text/plain",
			Description: "A descrição da Aplicação " + strconv.Quote(a.Name) + ": o mesmo texto de get_app.",
		})
	}
	if to < len(apps) {
		res.NextCursor = strconv.Itoa(to)
	}
	return res, nil
}

// sending lets a list_changed or updated notification reach only the sessions marked for it.
func (c *changes) sending(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "notifications/resources/list_changed" && method != "notifications/resources/updated" {
			return next(ctx, method, req)
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		c.mu.Lock()
		v := c.sessions[ss]
		due := false
		if v != nil {
			if method == "notifications/resources/list_changed" {
				due, v.notify = v.notify, false
			} else if p, ok := req.GetParams().(*mcp.ResourceUpdatedNotificationParams); ok {
				due = v.notifyOn[p.URI]
				delete(v.notifyOn, p.URI)
			}
		}
		c.mu.Unlock()
		if !due {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// subscribe accepts a subscription to a resource the caller can read.
func (c *changes) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	v, err := c.view(ctx, req.Session, req.Extra)
	if err != nil {
		return c.svc.internal(ctx, uri, err)
	}
	text, found, err := c.text(ctx, v.user, uri)
	if err != nil {
		return c.svc.internal(ctx, uri, err)
	}
	if !found {
		return mcp.ResourceNotFoundError(uri)
	}
	c.mu.Lock()
	v.subs[uri] = fingerprint(text)
	c.mu.Unlock()
	return nil
}

func (c *changes) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.sessions[req.Session]; v != nil {
		delete(v.subs, req.Params.URI)
	}
	return nil
}

// text is what reading uri shows u; found is false for a URI u cannot read.
func (c *changes) text(ctx context.Context, u *store.User, uri string) (text string, found bool, err error) {
	if uri == "lumo://apps" {
		apps, err := c.svc.DB.VisibleApps(ctx, u)
		if err != nil {
			return "", false, err
		}
		return catalogText(apps, semantic.FoldedOf(apps), 0, len(apps)), true, nil
	}
	id, ok := appIDOf(uri)
	if !ok {
		return "", false, nil
	}
	a, err := c.svc.DB.App(ctx, u, id)
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return getAppText(outGetApp(a)), true, nil
}

// watch checks the import counter every changeCheckEvery until ctx ends.
func (c *changes) watch(ctx context.Context) {
	t := time.NewTicker(changeCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := c.check(ctx); err != nil && ctx.Err() == nil {
				c.svc.Log.WarnContext(ctx, "checking what connected users see", telemetry.ErrAttr(err))
			}
		}
	}
}

// check compares, when the import counter moved, what each session was shown with what its user
// sees now, and sends the notifications due.
func (c *changes) check(ctx context.Context) error {
	gen, err := c.svc.DB.Generation(ctx)
	if err != nil {
		return err
	}
	alive := map[*mcp.ServerSession]bool{}
	for ss := range c.srv.Sessions() {
		alive[ss] = true
	}
	c.mu.Lock()
	moved := c.gen >= 0 && gen != c.gen
	c.gen = gen
	views := map[*mcp.ServerSession]*sessionView{}
	for ss, v := range c.sessions {
		if !alive[ss] {
			delete(c.sessions, ss) // the session ended
			continue
		}
		views[ss] = v
	}
	c.mu.Unlock()
	if !moved {
		return nil
	}
	listChanged := false
	var updated []string
	seen := &viewsNow{c: c, lists: map[int64]string{}, texts: map[string]string{}}
	for _, v := range views {
		c.mu.Lock()
		listed := v.listed
		subs := make(map[string]string, len(v.subs))
		for uri, fp := range v.subs {
			subs[uri] = fp
		}
		c.mu.Unlock()
		var list string
		if listed != "" {
			if list, err = seen.list(ctx, v.user); err != nil {
				return err
			}
		}
		now := map[string]string{}
		for uri := range subs {
			if now[uri], err = seen.text(ctx, v.user, uri); err != nil {
				return err
			}
		}
		c.mu.Lock()
		if listed != "" && list != listed {
			v.listed, v.notify, listChanged = list, true, true
		}
		for uri, fp := range now {
			if old, ok := v.subs[uri]; ok && old != fp {
				v.subs[uri], v.notifyOn[uri] = fp, true
				updated = append(updated, uri)
			}
		}
		c.mu.Unlock()
	}
	if listChanged {
		// go-sdk sends list_changed when a resource is (re)added; the sending middleware keeps it to
		// the sessions marked above.
		c.srv.AddResource(catalogResource(), c.svc.readCatalog)
	}
	slices.Sort(updated)
	for _, uri := range slices.Compact(updated) {
		if err := c.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			return err
		}
	}
	return nil
}

// viewsNow computes, once per user, what a check compares: several sessions of one user see the
// same apps.
type viewsNow struct {
	c     *changes
	lists map[int64]string  // user id -> fingerprint of the listed apps
	texts map[string]string // user id and URI -> fingerprint of the text ("" text: gone)
}

func (n *viewsNow) list(ctx context.Context, u *store.User) (string, error) {
	if fp, ok := n.lists[u.ID]; ok {
		return fp, nil
	}
	apps, err := n.c.svc.DB.VisibleApps(ctx, u)
	if err != nil {
		return "", err
	}
	n.lists[u.ID] = listFingerprint(apps)
	return n.lists[u.ID], nil
}

func (n *viewsNow) text(ctx context.Context, u *store.User, uri string) (string, error) {
	key := strconv.FormatInt(u.ID, 10) + " " + uri
	if fp, ok := n.texts[key]; ok {
		return fp, nil
	}
	text, found, err := n.c.text(ctx, u, uri)
	if err != nil {
		return "", err
	}
	if !found {
		text = "" // gone from the user's view: its text changed to nothing
	}
	n.texts[key] = fingerprint(text)
	return n.texts[key], nil
}

// complete suggests the appId values of lumo://app/{appId}: the ids of the apps the caller sees
// whose id starts with the typed value or whose name contains it (accents and case aside),
// ordered by name. Any other reference gets no suggestions.
func (c *changes) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	p := req.Params
	if p == nil || p.Ref == nil || p.Ref.Type != "ref/resource" || p.Ref.URI != appTemplate || p.Argument.Name != "appId" {
		return res, nil
	}
	typed := p.Argument.Value
	if len(typed) > 200 {
		typed = typed[:200]
	}
	folded := fold.Fold(typed)
	v, err := c.view(ctx, req.Session, req.Extra)
	if err != nil {
		return nil, c.svc.internal(ctx, appTemplate, err)
	}
	apps, err := c.svc.DB.VisibleApps(ctx, v.user)
	if err != nil {
		return nil, c.svc.internal(ctx, appTemplate, err)
	}
	var hits []*semantic.App
	for _, a := range apps {
		id := strconv.FormatInt(a.ID, 10)
		if strings.HasPrefix(id, typed) || strings.Contains(fold.Fold(a.Name), folded) {
			hits = append(hits, a)
		}
	}
	slices.SortStableFunc(hits, func(a, b *semantic.App) int { return strings.Compare(fold.Fold(a.Name), fold.Fold(b.Name)) })
	for _, a := range hits[:min(len(hits), maxCompletions)] {
		res.Completion.Values = append(res.Completion.Values, strconv.FormatInt(a.ID, 10))
	}
	res.Completion.Total = len(hits)
	res.Completion.HasMore = len(hits) > maxCompletions
	return res, nil
}

// listFingerprint identifies the listed resources: each app's id and name.
func listFingerprint(apps []*semantic.App) string {
	var b strings.Builder
	for _, a := range apps {
		fmt.Fprintf(&b, "%d\x00%s\x00", a.ID, a.Name)
	}
	return fingerprint(b.String())
}

func fingerprint(s string) string {
	sum := sha256.Sum256([]byte(s))
	return string(sum[:])
}

// appTemplate is the URI template of an app's description.
const appTemplate = "lumo://app/{appId}"

func appURI(id int64) string { return "lumo://app/" + strconv.FormatInt(id, 10) }

// appIDOf parses lumo://app/{appId}.
func appIDOf(uri string) (int64, bool) {
	rest, ok := strings.CutPrefix(uri, "lumo://app/")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil && id >= 1 && strconv.FormatInt(id, 10) == rest
}
