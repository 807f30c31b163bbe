package forms

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// secretField is the part of a form field that looksSecret reads.
type secretField struct {
	name, title, description, format string
	enumOptions                      bool
	kind                             string
}

func (f secretField) looksSecret() bool {
	return looksSecret(f.name, f.title, f.description, f.format, f.enumOptions, f.kind)
}

func TestLooksSecret_E17(t *testing.T) {
	cases := []struct {
		behaviour string
		field     secretField
		want      bool
	}{
		// Secrets asked for by name, title or format.
		{"a field named password asks for a secret", secretField{name: "password", kind: "text"}, true},
		{"a camelCase name ending in Password asks for a secret", secretField{name: "userPassword", title: "Account", kind: "text"}, true},
		{"a name joined in lower case still asks for a password", secretField{name: "dbpassword", kind: "text"}, true},
		{"format password asks for a secret whatever the name", secretField{name: "value", title: "Value", format: "password", kind: "text"}, true},
		{"an API key title asks for a secret", secretField{name: "x", title: "API key", kind: "text"}, true},
		{"a snake_case api_key name asks for a secret", secretField{name: "openai_api_key", kind: "text"}, true},
		{"a kebab-case x-api-key name asks for a secret", secretField{name: "x-api-key", kind: "text"}, true},
		{"apikey written as one word asks for a secret", secretField{name: "apikey", kind: "text"}, true},
		{"an access token name asks for a secret", secretField{name: "accessToken", title: "Access token", kind: "text"}, true},
		{"a client secret asks for a secret", secretField{name: "client_secret", kind: "text"}, true},
		{"an SSH private key asks for a secret", secretField{name: "key", title: "SSH private key", description: "PEM, starting with -----BEGIN", kind: "text"}, true},
		{"a wallet recovery phrase asks for a secret", secretField{name: "words", title: "Wallet recovery phrase", kind: "text"}, true},
		{"a card number asks for a secret", secretField{name: "cardNumber", title: "Card number", kind: "text"}, true},
		{"a credit card number typed as a number asks for a secret", secretField{name: "cc", title: "Credit card number", kind: "number"}, true},
		{"a CVV typed as an integer asks for a secret", secretField{name: "cvv", kind: "integer"}, true},
		{"a card security code asks for a secret", secretField{name: "sc", title: "Security code (3 digits on the back)", kind: "text"}, true},
		{"an IBAN asks for a secret", secretField{name: "iban", title: "IBAN", kind: "text"}, true},
		{"a routing number asks for a secret", secretField{name: "routingNumber", kind: "text"}, true},
		{"a PIN typed as an integer asks for a secret", secretField{name: "pin", title: "PIN", kind: "integer"}, true},
		{"a one-time code asks for a secret", secretField{name: "code", title: "One-time code", kind: "text"}, true},
		{"an OTP name in capitals asks for a secret", secretField{name: "OTPCode", kind: "text"}, true},
		{"a 2FA code asks for a secret", secretField{name: "twoFactor", title: "2FA code", kind: "text"}, true},
		{"a verification code sent by SMS asks for a secret", secretField{name: "code", title: "Verification code", description: "We sent it by SMS", kind: "text"}, true},
		{"a social security number asks for a secret", secretField{name: "ssn", title: "Social security number", kind: "text"}, true},
		{"the name outweighs a description that says not to give it", secretField{name: "pin", description: "Never enter your PIN here", kind: "text"}, true},

		// Secrets asked for in a description only.
		{"a description that begins by naming a token asks for it", secretField{name: "value", title: "Value", description: "Your GitHub personal access token", kind: "text"}, true},
		{"a description that says enter your API key asks for it", secretField{name: "value", description: "Required. Enter your API key from the dashboard.", kind: "text"}, true},
		{"a description asking for a password and a user name asks for the password", secretField{name: "proxy", title: "Proxy", description: "Enter the password and user name for the proxy", kind: "text"}, true},
		{"a PIN sent to an email address is still a PIN", secretField{name: "code", description: "Enter the PIN sent to your email address", kind: "text"}, true},
		{"a description that says paste the bot token asks for it", secretField{name: "value", description: "Open Telegram and paste the bot token from @BotFather", kind: "text"}, true},

		// Chinese.
		{"a Chinese login password title asks for a secret", secretField{name: "pw", title: "登录密码", kind: "text"}, true},
		{"a six-digit Chinese payment password asks for a secret", secretField{name: "pay", title: "支付密码", description: "6位数字", kind: "integer"}, true},
		{"a Chinese SMS verification code asks for a secret", secretField{name: "code", title: "短信验证码", kind: "text"}, true},
		{"a Chinese bank card number asks for a secret", secretField{name: "card", title: "银行卡号", kind: "text"}, true},
		{"a Chinese credit card security code asks for a secret", secretField{name: "cvv2", title: "信用卡安全码", kind: "integer"}, true},
		{"a Chinese API key title asks for a secret", secretField{name: "k", title: "API 密钥", kind: "text"}, true},
		{"a Chinese access token title asks for a secret", secretField{name: "t", title: "访问令牌", kind: "text"}, true},
		{"a Chinese ID card number asks for a secret", secretField{name: "id", title: "身份证号码", kind: "text"}, true},
		{"a PIN written in Chinese asks for a secret", secretField{name: "p", title: "PIN码", kind: "text"}, true},
		{"a Chinese description asking for the payment password asks for it", secretField{name: "value", title: "确认", description: "请输入您的支付密码", kind: "text"}, true},
		{"a student number and password in Chinese asks for the password", secretField{name: "login", title: "请输入学号和密码", kind: "text"}, true},
		{"a Traditional Chinese password title asks for a secret", secretField{name: "pw", title: "密碼", kind: "text"}, true},
		{"a full-width PIN in Chinese text asks for a secret", secretField{name: "p", title: "请输入ＰＩＮ", kind: "text"}, true},

		// Look-alikes in names and titles.
		{"a keyboard layout is not a secret", secretField{name: "keyboardLayout", title: "Keyboard layout", kind: "text"}, false},
		{"key words are not a secret", secretField{name: "keywords", title: "Key words", kind: "text"}, false},
		{"a hotkey is a shortcut, not a secret", secretField{name: "hotkey", title: "Hotkey", kind: "text"}, false},
		{"a favourite monkey, turkey or donkey is not a secret", secretField{name: "animal", title: "Monkey, turkey or donkey?", kind: "text"}, false},
		{"max tokens is a count", secretField{name: "maxTokens", title: "Max tokens", kind: "integer"}, false},
		{"max_new_tokens joined in snake case is a count", secretField{name: "max_new_tokens", kind: "integer"}, false},
		{"a token limit typed as text is still a count", secretField{name: "limit", title: "Token limit", kind: "text"}, false},
		{"a token budget is a count", secretField{name: "tokenBudget", title: "Token budget", kind: "integer"}, false},
		{"tokens in a number field are a count", secretField{name: "tokens", title: "Tokens", kind: "number"}, false},
		{"a crypto token symbol is not a secret", secretField{name: "tokenSymbol", title: "Token symbol", kind: "text"}, false},
		{"a secret santa name is not a secret", secretField{name: "giftee", title: "Secret Santa name", kind: "text"}, false},
		{"a secretary is not a secret", secretField{name: "secretary", title: "Secretary", kind: "text"}, false},
		{"a tokenizer name is not a secret", secretField{name: "tokenizer", title: "Tokenizer", kind: "text"}, false},
		{"a password hint is about the password, not the password", secretField{name: "passwordHint", title: "Password hint", kind: "text"}, false},
		{"a minimum password length is a number about the password", secretField{name: "minPasswordLength", title: "Minimum password length", kind: "integer"}, false},
		{"an API key name is a label for the key", secretField{name: "apiKeyName", title: "API key name", kind: "text"}, false},
		{"an SSH public key is not a secret", secretField{name: "publicKey", title: "SSH public key", kind: "text"}, false},
		{"a pinned message is not a PIN", secretField{name: "pinned", title: "Pinned message", kind: "text"}, false},
		{"a spinning speed is not a PIN", secretField{name: "spinningSpeed", title: "Spinning speed", kind: "number"}, false},
		{"a map pin label is not a PIN", secretField{name: "label", title: "Map pin label", kind: "text"}, false},
		{"a pin code of the map is a map pin", secretField{name: "where", title: "Pin code of the map", kind: "text"}, false},
		{"a crypto token contract address is not a secret", secretField{name: "contract", title: "Token contract address", kind: "text"}, false},
		{"a boarding pass number is not a password", secretField{name: "boardingPass", title: "Boarding pass number", kind: "text"}, false},
		{"a passenger or a compass is not a password", secretField{name: "passenger", title: "Passenger compass heading", kind: "text"}, false},
		{"a library card number is not a payment card", secretField{name: "libraryCardNumber", title: "Library card number", kind: "text"}, false},

		// Kinds that cannot hold a typed secret.
		{"a yes/no about passkey support is not a secret", secretField{name: "passkeySupport", title: "Passkey support (yes/no)", kind: "boolean"}, false},
		{"remember password is a yes/no, not a password", secretField{name: "rememberPassword", title: "Remember password?", kind: "boolean"}, false},
		{"a choice of password manager is not a password", secretField{name: "manager", title: "Which password manager do you use?", enumOptions: true, kind: "single-select"}, false},
		{"an email field holds an address even when it mentions a password", secretField{name: "recovery", title: "Recovery email", description: "Where we send your password reset link", kind: "email"}, false},
		{"a card expiry date holds a date", secretField{name: "expiry", title: "Credit card expiry date", kind: "date"}, false},

		// Descriptions that mention a secret without asking for it.
		{"never enter your PIN here does not ask for a PIN", secretField{name: "note", title: "Note", description: "Never enter your PIN here", kind: "text"}, false},
		{"do not share your password does not ask for one", secretField{name: "comment", title: "Comment", description: "Do not share your password or API key with anyone", kind: "text"}, false},
		{"don't paste tokens does not ask for one", secretField{name: "log", title: "Log excerpt", description: "Don't paste tokens or secrets into this box", kind: "text"}, false},
		{"a password mentioned in passing is not asked for", secretField{name: "phone", title: "Phone", description: "Used to reset your password if you forget it", kind: "text"}, false},
		{"a description that says passwords must not be shared does not ask for one", secretField{name: "notes", title: "Notes", description: "Passwords must not be shared", kind: "text"}, false},
		{"the name of an API key is a label for the key", secretField{name: "name", title: "Name", description: "Name of the API key", kind: "text"}, false},
		{"maximum number of tokens in a description is a count", secretField{name: "limit", title: "Limit", description: "Maximum number of tokens to generate", kind: "text"}, false},

		// Chinese look-alikes and negations.
		{"不要输入密码 does not ask for a password", secretField{name: "备注", title: "备注", description: "不要输入密码", kind: "text"}, false},
		{"请勿填写验证码 does not ask for a code", secretField{name: "comment", title: "留言", description: "请勿填写验证码或银行卡号", kind: "text"}, false},
		{"关键词 (keywords) is not a key", secretField{name: "keywords", title: "关键词", kind: "text"}, false},
		{"关键字 (keywords) is not a key", secretField{name: "kw", title: "搜索关键字", kind: "text"}, false},
		{"账号 is a user name, not a secret", secretField{name: "account", title: "账号", kind: "text"}, false},
		{"密码学 is cryptography, not a password", secretField{name: "course", title: "密码学课程名称", kind: "text"}, false},
		{"最大令牌数 is a count of tokens", secretField{name: "maxTokens", title: "最大令牌数", kind: "integer"}, false},
		{"密码长度 is a number about the password", secretField{name: "len", title: "密码最大长度", kind: "text"}, false},
		{"会员卡号 is a membership card, not a payment card", secretField{name: "member", title: "会员卡号", kind: "text"}, false},
		{"图形验证码 is a captcha, not a secret", secretField{name: "captcha", title: "图形验证码", kind: "text"}, false},
		{"请输入图片中的验证码 asks for a captcha, not a secret", secretField{name: "captcha", description: "请输入图片中的验证码", kind: "text"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.behaviour, func(t *testing.T) {
			if got := tc.field.looksSecret(); got != tc.want {
				f := tc.field
				t.Errorf("looksSecret(name %q, title %q, description %q, format %q, enumOptions %v, kind %q) = %v, want %v",
					f.name, f.title, f.description, f.format, f.enumOptions, f.kind, got, tc.want)
			}
		})
	}
}

// everythingFormVersion is the @modelcontextprotocol/server-everything
// release (testdata/peers/package.json) whose trigger-elicitation-request
// form is copied below from dist/tools/trigger-elicitation-request.js.
const everythingFormVersion = "2026.8.31"

// everythingFormFields is that tool's requestedSchema, field by field. Its
// "integer" field says "do not give us your phone number, pin, or other
// sensitive info": the reference server asks for no secret.
var everythingFormFields = []secretField{
	{name: "name", title: "String", description: "Your full, legal name", kind: "text"},
	{name: "check", title: "Boolean", description: "Agree to the terms and conditions", kind: "boolean"},
	{name: "firstLine", title: "String with default", description: "Favorite first line of a story", kind: "text"},
	{name: "email", title: "String with email format", description: "Your email address (will be verified, and never shared with anyone else)", format: "email", kind: "email"},
	{name: "homepage", title: "String with uri format", description: "Portfolio / personal website", format: "uri", kind: "uri"},
	{name: "birthdate", title: "String with date format", description: "Your date of birth", format: "date", kind: "date"},
	{name: "integer", title: "Integer", description: "Your favorite integer (do not give us your phone number, pin, or other sensitive info)", kind: "integer"},
	{name: "number", title: "Number in range 1-1000", description: "Favorite number (there are no wrong answers)", kind: "number"},
	{name: "untitledSingleSelectEnum", title: "Untitled Single Select Enum", description: "Choose your favorite friend", enumOptions: true, kind: "single-select"},
	{name: "untitledMultipleSelectEnum", title: "Untitled Multiple Select Enum", description: "Choose your favorite instruments", enumOptions: true, kind: "multi-select"},
	{name: "titledSingleSelectEnum", title: "Titled Single Select Enum", description: "Choose your favorite hero", enumOptions: true, kind: "single-select"},
	{name: "titledMultipleSelectEnum", title: "Titled Multiple Select Enum", description: "Choose your favorite types of fish", enumOptions: true, kind: "multi-select"},
	{name: "legacyTitledEnum", title: "Legacy Titled Single Select Enum", description: "Choose your favorite type of pet", enumOptions: true, kind: "single-select"},
}

func TestLooksSecret_ServerEverythingFormHasNoSecret(t *testing.T) {
	for _, f := range everythingFormFields {
		if f.looksSecret() {
			t.Errorf("server-everything %s field %q (%q: %q) is flagged as asking for a secret", everythingFormVersion, f.name, f.title, f.description)
		}
	}
	// The negation, not the integer kind, is what clears the "integer" field:
	// a PIN may be typed as an integer.
	i := slices.IndexFunc(everythingFormFields, func(f secretField) bool { return f.name == "integer" })
	integer := everythingFormFields[i]
	integer.description = strings.Replace(integer.description, "do not give us", "give us", 1)
	if !integer.looksSecret() {
		t.Errorf("without its negation, %q should ask for a PIN", integer.description)
	}
}

// TestLooksSecret_EverythingCopyIsCurrent checks the copy above against the
// installed server-everything, so that a new release that changes the form
// fails here instead of leaving a stale copy.
func TestLooksSecret_EverythingCopyIsCurrent(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "node_modules", "@modelcontextprotocol", "server-everything")
	pkg, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatalf("server-everything is not installed (run: make peers): %v", err)
		}
		t.Skipf("server-everything is not installed (run: make peers): %v", err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(pkg, &meta); err != nil {
		t.Fatalf("reading server-everything's package.json: %v", err)
	}
	if meta.Version != everythingFormVersion {
		t.Fatalf("installed server-everything is %s; the copied form is from %s: copy it again", meta.Version, everythingFormVersion)
	}
	src, err := os.ReadFile(filepath.Join(dir, "dist", "tools", "trigger-elicitation-request.js"))
	if err != nil {
		t.Fatalf("reading the tool's source: %v", err)
	}
	_, js, ok := strings.Cut(string(src), "requestedSchema")
	if !ok {
		t.Fatalf("the installed tool sends no requestedSchema")
	}
	for _, f := range everythingFormFields {
		wants := []string{f.name + ": {", `title: "` + f.title + `"`, `description: "` + f.description + `"`}
		if f.format != "" {
			wants = append(wants, `format: "`+f.format+`"`)
		}
		for _, want := range wants {
			if !strings.Contains(js, want) {
				t.Errorf("field %q: %s not found in the installed tool", f.name, want)
			}
		}
	}
	if got := strings.Count(js, `description: "`); got != len(everythingFormFields) {
		t.Errorf("the installed tool has %d described fields, the copy %d", got, len(everythingFormFields))
	}
}

func TestSecretUnits(t *testing.T) {
	cases := []struct {
		behaviour string
		text      string
		name      bool // split as a field's name (identifierUnits)
		want      []string
	}{
		{"a name splits at each camelCase capital", "userPassword", true, []string{"user", "password"}},
		{"a run of capitals in a name is one word", "OTPCode", true, []string{"otp", "code"}},
		{"prose keeps camelCase words whole", "GitHub token", false, []string{"github", "token"}},
		{"snake and kebab case split at the separator", "x-api_key", true, []string{"x", "api", "key"}},
		{"digits are their own unit", "cvv2", true, []string{"cvv", "2"}},
		{"a secret word ending a joined word is split off", "authtoken", true, []string{"auth", "token"}},
		{"a word beginning with a secret word is kept whole", "tokenizer", false, []string{"tokenizer"}},
		{"each Han character is a unit", "支付密码", false, []string{"支", "付", "密", "码"}},
		{"Latin and Han split where the script changes", "PIN码", false, []string{"pin", "码"}},
		{"an apostrophe inside a word is kept", "Don’t share", false, []string{"don't", "share"}},
		{"full-width letters read as ASCII", "ＡＰＩ　Ｋｅｙ", false, []string{"api", "key"}},
	}
	for _, tc := range cases {
		t.Run(tc.behaviour, func(t *testing.T) {
			split := units
			if tc.name {
				split = identifierUnits
			}
			if got := split(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("split %q into %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

var secretFuzzKinds = []string{"text", "email", "uri", "date", "date-time", "number", "integer", "boolean", "single-select", "multi-select", ""}

// FuzzLooksSecret feeds arbitrary field text to looksSecret: it must not
// panic, and the rules that do not depend on wording must hold.
func FuzzLooksSecret(f *testing.F) {
	f.Add("password", "Password", "Enter your password", "", false, uint8(0))
	f.Add("maxTokens", "最大令牌数", "不要输入密码", "", false, uint8(6))
	f.Add("x", "ＰＩＮ码’s", "Don’t (paste) your API key", "password", true, uint8(8))
	f.Add("\xff\xfe", "'", "’", "", false, uint8(10))
	f.Fuzz(func(t *testing.T, name, title, description, format string, enumOptions bool, k uint8) {
		kind := secretFuzzKinds[int(k)%len(secretFuzzKinds)]
		got := looksSecret(name, title, description, format, enumOptions, kind)
		switch {
		case enumOptions || kind == "boolean" || kind == "single-select" || kind == "multi-select":
			if got {
				t.Errorf("a choice or yes/no field (kind %q) was flagged", kind)
			}
		case kind == "text" && format == "password" && !got:
			t.Errorf("a text field with format password was not flagged")
		}
		for _, u := range append(identifierUnits(name), units(title+description)...) {
			if u == "" {
				t.Fatalf("units produced an empty unit")
			}
		}
	})
}
