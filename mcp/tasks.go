package mcp

import (
	"bytes"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// MCP tasks (a tool's execution.taskSupport, 2025-11-25): the go-sdk has no
// client support for them, so Gatehouse calls every tool as a plain request.
// A tool that allows tasks ("optional") works so; one that requires them
// ("required") would answer with a raw protocol error. Such a tool is
// marked, a call of it says in a sentence that Gatehouse does not support
// tasks yet (ErrTaskRequired) without sending it, and the chat does not
// offer it to a model.
//
// The go-sdk's Tool has no execution field and drops it when it decodes
// tools/list. So every tools/list result read from a connection is
// rewritten before the SDK decodes it (in the same place as the form
// schemas, rawschema.go): each tool's execution.taskSupport is copied into
// its _meta[TaskSupportMeta], where Tool.Meta keeps it. A TaskSupportMeta
// the server wrote itself is removed, so only the host can put one there.

// TaskSupportMeta is the _meta key of a tool that carries its
// execution.taskSupport ("forbidden", "optional" or "required").
const TaskSupportMeta = "gatehouse.dev/taskSupport"

// TaskRequired is the execution.taskSupport of a tool that can only run as
// a task.
const TaskRequired = "required"

// ErrTaskRequired is a call of a tool that can only run as an MCP task.
var ErrTaskRequired = i18n.Err("mcp.error.taskRequired")

// TaskSupport returns a tool's execution.taskSupport as its server listed
// it, or "" when it gave none.
func TaskSupport(t *sdk.Tool) string {
	if t == nil {
		return ""
	}
	s, _ := t.Meta[TaskSupportMeta].(string)
	return s
}

// NeedsTask reports whether a tool can only run as an MCP task, which
// Gatehouse cannot do yet.
func NeedsTask(t *sdk.Tool) bool { return TaskSupport(t) == TaskRequired }

// mayCarryTaskSupport is the cheap test for a result worth reading.
func mayCarryTaskSupport(result []byte) bool {
	return bytes.Contains(result, []byte(`"tools"`)) &&
		(bytes.Contains(result, []byte(`"execution"`)) || bytes.Contains(result, []byte(TaskSupportMeta)))
}

// carryTaskSupport rewrites a tools/list result as described above. A
// result it cannot read is returned unchanged: the SDK then decodes (or
// refuses) it as it would have.
func carryTaskSupport(result json.RawMessage) json.RawMessage {
	if !mayCarryTaskSupport(result) {
		return result
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil || r["tools"] == nil {
		return result
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(r["tools"], &tools); err != nil {
		return result
	}
	for _, tool := range tools {
		if tool == nil {
			continue
		}
		var meta map[string]json.RawMessage
		if m := tool["_meta"]; m != nil && !isJSONNull(m) {
			if err := json.Unmarshal(m, &meta); err != nil {
				return result
			}
		}
		_, had := meta[TaskSupportMeta]
		delete(meta, TaskSupportMeta)
		var exec struct {
			TaskSupport string `json:"taskSupport"`
		}
		if e := tool["execution"]; e != nil {
			_ = json.Unmarshal(e, &exec)
		}
		if exec.TaskSupport == "" && !had {
			continue
		}
		if exec.TaskSupport != "" {
			if meta == nil {
				meta = map[string]json.RawMessage{}
			}
			meta[TaskSupportMeta], _ = marshalAsSent(exec.TaskSupport)
		}
		b, err := marshalAsSent(meta)
		if err != nil {
			return result
		}
		tool["_meta"] = b
	}
	var err error
	if r["tools"], err = marshalAsSent(tools); err != nil {
		return result
	}
	out, err := marshalAsSent(r)
	if err != nil {
		return result
	}
	return out
}
