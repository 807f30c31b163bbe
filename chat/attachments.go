package chat

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Bounds of what the person can attach to one message. They keep a message
// within what the store holds (store.MaxMessageBytes, 1 MiB) and a model's
// context within reason; what is left out is said in a sentence the model
// and the person read, never dropped silently.
const (
	// MaxAttachments is how many resources one message can carry.
	MaxAttachments = 8
	// MaxAttachmentText is how much of one text resource the model
	// receives, as for a tool result (maxResultText).
	MaxAttachmentText = maxResultText
	// MaxAttachedImages bounds the bytes of all images of one message
	// together: 512 KiB, which base64 makes about 683 KiB of the 1 MiB a
	// stored message holds. An image beyond it goes as a sentence.
	MaxAttachedImages = 512 << 10
	// attachmentReadTimeout bounds the read of one attached resource.
	attachmentReadTimeout = 60 * time.Second
)

// An AttachmentRequest is a resource the person chose to attach: read on
// the server when the message is sent, or, when Text or Image is set, the
// contents a prompt gave (a prompt's embedded resource or image).
type AttachmentRequest struct {
	ServerID string `json:"serverId"`
	URI      string `json:"uri"`
	// Name is what the chip shows (the resource's title or name).
	Name     string `json:"name"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Image    []byte `json:"image,omitempty" ts_type:"string"`
}

// ReadAttachments reads the resources the person attached, in order, into
// what is stored with the message and sent to the model: text as text (cut
// at MaxAttachmentText), a PNG, JPEG, GIF or WebP image as an image (within
// MaxAttachedImages), anything else as a sentence saying what it is. One
// read resource may give several attachments (one per item it returned).
// A read that fails fails the whole, with a sentence naming the resource,
// so that the person can take it away and send again.
func (r *Runner) ReadAttachments(ctx context.Context, reqs []AttachmentRequest) ([]store.Attachment, error) {
	if len(reqs) > MaxAttachments {
		return nil, i18n.Err("chatprompts.error.tooMany", "max", MaxAttachments)
	}
	var out []store.Attachment
	images := 0
	for _, req := range reqs {
		serverName := req.ServerID
		if peer, err := r.Manager.Peer(req.ServerID); err == nil {
			serverName = peer.Server.Name
		}
		base := store.Attachment{ServerID: req.ServerID, ServerName: serverName, URI: req.URI, Name: cmp.Or(req.Name, req.URI), MimeType: req.MimeType}
		if req.Text != "" || len(req.Image) > 0 {
			out = append(out, attachment(base, req.Text, !(len(req.Image) > 0), req.Image, &images))
			continue
		}
		readCtx, cancel := context.WithTimeout(ctx, attachmentReadTimeout)
		res, err := r.Manager.ReadResource(readCtx, req.ServerID, req.URI)
		cancel()
		if err != nil {
			return nil, i18n.Wrap(err, "chatprompts.error.read", "name", base.Name, "server", serverName, "detail", mcp.Describe(err))
		}
		if len(res.Contents) == 0 {
			a := base
			a.Text = fmt.Sprintf("[%s is empty.]", quoteName(a))
			out = append(out, a)
		}
		for i, c := range res.Contents {
			a := base
			if c.MIMEType != "" {
				a.MimeType = c.MIMEType
			}
			if i > 0 && c.Raw.URI != "" {
				a.URI, a.Name = c.Raw.URI, c.Raw.URI
			}
			if c.IsText {
				out = append(out, attachment(a, c.Raw.Text, true, nil, &images))
			} else {
				out = append(out, attachment(a, "", false, c.Raw.Blob, &images))
			}
		}
	}
	return out, nil
}

// attachment fills in what the model receives of one item: a text, an
// image while the message's images stay within MaxAttachedImages (images
// counts them), or a sentence.
func attachment(a store.Attachment, text string, isText bool, blob []byte, images *int) store.Attachment {
	switch {
	case isText:
		a.Size = len(text)
		a.Text = cutText(text, MaxAttachmentText)
	case utf8.Valid(blob) && textType(a.MimeType):
		a.Size = len(blob)
		a.Text = cutText(string(blob), MaxAttachmentText)
	case mcp.ImageType(a.MimeType, blob) != "" && *images+len(blob) <= MaxAttachedImages:
		a.Size, a.Image, a.MimeType = len(blob), blob, mcp.ImageType(a.MimeType, blob)
		*images += len(blob)
	case mcp.ImageType(a.MimeType, blob) != "":
		a.Size = len(blob)
		a.Text = fmt.Sprintf("[%s is an image of %d bytes: more than the %d KiB of images a message can carry, so Gatehouse did not send it.]",
			quoteName(a), len(blob), MaxAttachedImages>>10)
	default:
		a.Size = len(blob)
		a.Text = fmt.Sprintf("[%s is binary data (%s, %d bytes), which Gatehouse does not send to the model.]",
			quoteName(a), cmp.Or(a.MimeType, "no type given"), len(blob))
	}
	return a
}

// AttachmentParts are the parts of a user message that carry its
// attachments, as the model receives them: each text under a line naming
// the resource and its server; each image with the sentence a provider
// that reads no images sends instead.
func AttachmentParts(atts []store.Attachment) []llm.Part {
	var parts []llm.Part
	for _, a := range atts {
		head := fmt.Sprintf("Attached resource %s (%s) from the server %q:", quoteName(a), a.URI, a.ServerName)
		if len(a.Image) > 0 {
			parts = append(parts, llm.Part{Image: a.Image, MimeType: a.MimeType,
				Text: head + fmt.Sprintf("\n[An image (%s, %d bytes). This model does not read images, so Gatehouse did not send it.]", a.MimeType, a.Size)})
			continue
		}
		parts = append(parts, llm.Part{Text: head + "\n" + a.Text})
	}
	return parts
}

// cutText cuts text at max bytes, between characters, saying so.
func cutText(text string, max int) string {
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("\n[Gatehouse cut this resource here: it was %d bytes, more than %d.]", len(text), max)
}

// textType reports whether a blob with this MIME type is text.
func textType(mimeType string) bool {
	base := strings.ToLower(strings.TrimSpace(strings.Split(mimeType, ";")[0]))
	return strings.HasPrefix(base, "text/") || base == "application/json" || strings.HasSuffix(base, "+json") ||
		base == "application/xml" || strings.HasSuffix(base, "+xml")
}

func quoteName(a store.Attachment) string { return fmt.Sprintf("%q", a.Name) }
