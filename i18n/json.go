package i18n

import "encoding/json"

// UnmarshalJSON reads a message as MarshalJSON writes it, so that a message
// sent from one Gatehouse process to another (the running app to the command
// line, issue 13) is rendered by the reader in its own language. The text
// the writer rendered is ignored; nested messages — an argument that is
// itself {"key", "args"}, and the lists of List and Sentences — become
// messages again. A JSON string is read as its text (Text; "" as no
// message): what was stored as a sentence before it was a message.
func (m *Message) UnmarshalJSON(b []byte) error {
	var text string
	if json.Unmarshal(b, &text) == nil {
		*m = Text(text)
		return nil
	}
	var wire struct {
		Key  string                     `json:"key"`
		Args map[string]json.RawMessage `json:"args"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return err
	}
	m.Key, m.Args = wire.Key, make(map[string]any, len(wire.Args))
	for name, raw := range wire.Args {
		m.Args[name] = argFromJSON(raw)
	}
	return nil
}

// argFromJSON reads one argument: a message, a list of messages, or a plain
// JSON value.
func argFromJSON(raw json.RawMessage) any {
	var probe map[string]json.RawMessage
	if json.Unmarshal(raw, &probe) == nil && probe != nil {
		if _, hasKey := probe["key"]; hasKey {
			if _, hasArgs := probe["args"]; hasArgs {
				var msg Message
				if msg.UnmarshalJSON(raw) == nil {
					return msg
				}
			}
		}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		msgs := make([]Message, 0, len(list))
		for _, item := range list {
			msg, ok := argFromJSON(item).(Message)
			if !ok {
				break
			}
			msgs = append(msgs, msg)
		}
		if len(msgs) == len(list) {
			return msgs
		}
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}
