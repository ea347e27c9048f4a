package httpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"time"
)

// bounded wraps h so that a request's body arrives whole within lim.BodyTimeout and lim.MaxBody
// before h runs, and each write of the answer reaches the client within lim.WriteTimeout. A
// server-wide ReadTimeout or WriteTimeout would not do: net/http cancels a handler's context when
// its read deadline passes, and a write deadline for the whole answer would cut SSE streams.
func bounded(h http.Handler, lim Limits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: lim.WriteTimeout}
		dw.extend()
		if r.Body != nil && r.Body != http.NoBody {
			lim := lim
			if lim.MaxBodyFor != nil {
				if n := lim.MaxBodyFor(r); n > 0 {
					lim.MaxBody = n
				}
			}
			body, err := receive(w, dw.rc, r, lim)
			if err != nil {
				refuseBody(dw, r, err, lim)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(dw, r)
		dw.extend() // for the final flush after the handler returns
	})
}

// receive reads r's whole body within the bounds.
// w is net/http's own writer, so that an oversized body also closes the connection.
func receive(w http.ResponseWriter, rc *http.ResponseController, r *http.Request, lim Limits) ([]byte, error) {
	c := connOf(r)
	if c != nil {
		c.t.setPhase(c, receiving)
		defer c.t.setPhase(c, busy)
	}
	if r.ContentLength > lim.MaxBody { // announced too big: refused before reading it
		w.Header().Set("Connection", "close")
		rc.SetReadDeadline(time.Now())
		return nil, &http.MaxBytesError{Limit: lim.MaxBody}
	}
	rc.SetReadDeadline(time.Now().Add(lim.BodyTimeout))
	size := lim.MaxBody + 1
	if r.ContentLength >= 0 && r.ContentLength < size {
		size = r.ContentLength + 1
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, lim.MaxBody)); err != nil {
		// The deadline stays (passed, or in the past now), so net/http does not wait for the
		// rest of the body before closing the connection.
		rc.SetReadDeadline(time.Now())
		return nil, err
	}
	// No deadline once the body is in: net/http's background read would cancel the handler.
	rc.SetReadDeadline(time.Time{})
	return buf.Bytes(), nil
}

// refuseBody answers a body that did not arrive within the bounds: in plain text, or as the error
// body {"error": {code, message, suggestions}} of the REST mirror when the body is JSON.
func refuseBody(w http.ResponseWriter, r *http.Request, err error, lim Limits) {
	var tooBig *http.MaxBytesError
	var ne net.Error
	refuse := http.Error
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		refuse = jsonError
	}
	switch {
	case errors.As(err, &tooBig):
		refuse(w, fmt.Sprintf("Requisição grande demais: o limite é %d bytes.", lim.MaxBody), http.StatusRequestEntityTooLarge)
	case errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		w.Header().Set("Connection", "close")
		refuse(w, fmt.Sprintf("O corpo da requisição não chegou inteiro em %s; envie-o de uma vez.", lim.BodyTimeout), http.StatusRequestTimeout)
	default:
		w.Header().Set("Connection", "close")
		refuse(w, "Não foi possível ler o corpo da requisição.", http.StatusBadRequest)
	}
}

// jsonError answers msg with status as the shared error body.
func jsonError(w http.ResponseWriter, msg string, status int) {
	code := map[int]string{http.StatusRequestEntityTooLarge: "REQUEST_TOO_LARGE", http.StatusRequestTimeout: "REQUEST_TIMEOUT"}[status]
	if code == "" {
		code = "INVALID_ARGUMENTS"
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": msg, "suggestions": []string{}}})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// deadlineWriter gives each write of an answer its own deadline, so a client that stops reading
// frees the handler within d however long the answer (or an SSE stream) lasts.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) extend() { w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) FlushError() error {
	w.extend()
	return w.rc.Flush()
}

func (w *deadlineWriter) Flush() { w.FlushError() }

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
