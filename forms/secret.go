package forms

import (
	"slices"
	"strings"
	"unicode"
)

// looksSecret reports whether a form field seems to ask for a secret (E17): a
// password, key or token, a one-time code or PIN, payment card or bank
// details, or a national ID number, in English or Chinese.
//
// A field's name, title and format weigh most: a secret word in the name
// ("apiKey", "card_number") or title ("One-time code", "支付密码"), or
// format "password" (not in the JSON Schema vocabulary, but servers send it),
// is enough. A description counts only when it asks for the secret
// ("Enter your API key", "Your GitHub token", "请输入验证码") and never when it
// says not to give one ("never enter your PIN here", "不要输入密码"). A word
// that names something about a secret rather than the secret itself does not
// count: "max tokens", "token count", "password hint", "API key name",
// "secret santa", "最大令牌数".
//
// Kinds that cannot carry a typed secret never look secret: booleans and
// choice fields ("Passkey support (yes/no)", "Remember password?") hold an
// answer the server offered, and email and date fields hold values the form
// checks for that shape. In a number field only secrets that are numbers
// count (PIN, CVV, card number, one-time code): "Tokens" there is a count.
//
// kind is one of "text", "email", "uri", "date", "date-time", "number",
// "integer", "boolean", "single-select" or "multi-select" (an unknown kind is
// judged like text); enumOptions is true for choice fields.
func looksSecret(name, title, description, format string, enumOptions bool, kind string) bool {
	if enumOptions {
		return false
	}
	switch kind {
	case "boolean", "single-select", "multi-select", "email", "date", "date-time":
		return false
	}
	if strings.EqualFold(strings.TrimSpace(format), "password") {
		return true
	}
	number := kind == "number" || kind == "integer"
	return hasSecret(identifierUnits(name), number, false) || titlesSecret(title, number) || asksForSecret(description, number)
}

// titlesSecret reports whether a field's title names a secret. A title is
// short and says what the field is, so the word alone is enough.
func titlesSecret(title string, number bool) bool {
	for _, s := range sentences(title) {
		if hasSecret(units(s), number, false) {
			return true
		}
	}
	return false
}

// asksForSecret reports whether a description asks for a secret: in one of
// its sentences a secret word comes after a request ("enter", "paste", "输入")
// or among the sentence's first words, where a description says what the
// field is ("Your GitHub token", "The API key from ..."). A secret mentioned
// further on ("Used to reset your password") is not asked for, and a sentence
// with a negation anywhere in it is a warning, not a request ("Never enter
// your PIN here", "Passwords must not be shared", "不要输入密码").
func asksForSecret(description string, number bool) bool {
	for _, s := range sentences(description) {
		u := units(s)
		if negated(u) {
			continue
		}
		if hasSecret(u, number, true) {
			return true
		}
	}
	return false
}

// openingUnits is how far into a description's sentence a secret word counts
// as the thing the sentence is about: "Your OpenAI API key", "您的支付密码".
const openingUnits = 4

// nearUnits is how many units before a secret word are searched for words
// that make it a count or a property ("max output tokens", "name of the key").
const nearUnits = 3

// hasSecret reports whether the units of one sentence hold a secret term
// that no negation before it rules out ("No password needed"). With mustAsk,
// the term must also be asked for (see asksForSecret).
func hasSecret(u []string, number, mustAsk bool) bool {
	for i := range u {
		for _, t := range secretTerms {
			if number && t.textOnly {
				continue
			}
			n := matchAt(u, i, t.words)
			if n == 0 || changesMeaning(u, i, i+n, t) || negated(u[:i]) {
				continue
			}
			if mustAsk && i >= openingUnits && !containsAny(u[:i], askWords) {
				continue
			}
			return true
		}
	}
	return false
}

// changesMeaning reports whether the words around u[start:end] make the
// secret term mean something else: a count or a property of it shortly
// before it ("max tokens", "name of the API key"), a property of
// the secret right after it (a count word may come between), or the term's
// own look-alike context. A property must follow at once so that "password
// and user name" still asks for a password.
func changesMeaning(u []string, start, end int, t secretTerm) bool {
	for _, p := range slices.Concat(countWords, ofWords) {
		for s := max(0, start-nearUnits); s < start; s++ {
			if n := matchAt(u, s, p); n > 0 && s+n <= start {
				return true
			}
		}
	}
	after := end
	for skipped := true; skipped; { // "password max length", "密码最大长度"
		skipped = false
		for _, p := range countWords {
			if n := matchAt(u, after, p); n > 0 {
				after, skipped = after+n, true
				break
			}
		}
	}
	for _, p := range aboutWords {
		if matchAt(u, after, p) > 0 {
			return true
		}
	}
	return containsAny(u, t.unlessWith)
}

// negated reports whether the units before a secret word say not to give it.
func negated(before []string) bool {
	for _, w := range before {
		if strings.HasSuffix(w, "n't") {
			return true
		}
	}
	return containsAny(before, negationWords)
}

// containsAny reports whether any phrase occurs within u.
func containsAny(u []string, phrases [][]string) bool {
	for i := range u {
		for _, p := range phrases {
			if matchAt(u, i, p) > 0 {
				return true
			}
		}
	}
	return false
}

// matchAt returns the length of phrase p if it occurs at u[i:], else 0. The
// last word of an English phrase also matches its plural ("api keys", "tokens").
func matchAt(u []string, i int, p []string) int {
	if len(p) == 0 || i+len(p) > len(u) {
		return 0
	}
	for j, w := range p {
		got := u[i+j]
		if got == w || (j == len(p)-1 && isASCII(w) && got == w+"s") {
			continue
		}
		return 0
	}
	return len(p)
}

func isASCII(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// sentenceEnds split a text into sentences, so that a negation or a request
// in one sentence or parenthesis does not reach into the next. A comma does
// not end one: "do not give us your phone number, pin, or other sensitive
// info" says "not" about every item of its list.
const sentenceEnds = ".!?;:()[]{}\n。！？；：（）【】「」"

func sentences(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(sentenceEnds, r) })
}

// units splits text into the lower-case units that phrases are matched on:
//   - a word of letters, split where a secret word ends a joined word
//     ("userpassword"); an apostrophe inside a word is kept ("don't");
//   - a run of digits ("cvv2" is "cvv", "2");
//   - one Han character, since Chinese is written without spaces: "支付密码"
//     is 支 付 密 码, and the phrase 密码 is found in it.
//
// Full-width Latin letters and digits ("ＰＩＮ") are read as their ASCII forms.
// Everything else separates units.
func units(text string) []string {
	return split(text, false)
}

// identifierUnits splits a field's name like units, and also where camelCase
// starts a new word ("apiKey", "OTPCode"). Prose is not split so: "GitHub"
// and "OpenAI" are one word each there.
func identifierUnits(name string) []string {
	return split(name, true)
}

func split(text string, camelCase bool) []string {
	rs := []rune(text)
	for i, r := range rs {
		if r >= '！' && r <= '～' { // full-width forms of ASCII '!'..'~'
			rs[i] = r - '！' + '!'
		}
	}
	var out []string
	start := -1 // start of the word being read, or -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, splitJoined(strings.ToLower(string(rs[start:end])))...)
			start = -1
		}
	}
	for i, r := range rs {
		switch {
		case unicode.Is(unicode.Han, r):
			flush(i)
			out = append(out, string(r))
		case unicode.IsDigit(r):
			if start >= 0 && !unicode.IsDigit(rs[start]) {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		case unicode.IsLetter(r) || unicode.IsMark(r):
			if start >= 0 && (unicode.IsDigit(rs[start]) || camelCase && camelHump(rs, i)) {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		case (r == '\'' || r == '’') && start >= 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) && unicode.IsLetter(rs[i-1]):
			rs[i] = '\''
		default:
			flush(i)
		}
	}
	flush(len(rs))
	return out
}

// camelHump reports whether the letter at rs[i] starts a new camelCase word:
// "apiKey" at K, "OTPCode" at C (an upper-case letter before a lower-case one).
func camelHump(rs []rune, i int) bool {
	if i == 0 || !unicode.IsUpper(rs[i]) {
		return false
	}
	prev := rs[i-1]
	if unicode.IsLower(prev) {
		return true
	}
	return unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
}

// joinedSecretEnds are secret words that identifiers often join to another
// word without a capital or separator ("userpassword", "authtoken",
// "maxtokens", "myapikey"). Only word endings are split: many ordinary words
// begin with one ("tokenizer", "secretary", "passwordless").
var joinedSecretEnds = []string{"password", "passwd", "passphrase", "passcode", "secret", "tokens", "token", "apikey"}

func splitJoined(w string) []string {
	for _, end := range joinedSecretEnds {
		if rest, ok := strings.CutSuffix(w, end); ok && len(rest) >= 2 {
			return []string{rest, end}
		}
	}
	return []string{w}
}

// A secretTerm is a word or phrase that names a secret.
type secretTerm struct {
	words []string // the term split into units
	// textOnly marks secrets that are never a bare number: in a number field
	// the word counts or measures something ("Tokens": 4096).
	textOnly bool
	// unlessWith are words that, anywhere in the same sentence, give the term
	// another meaning ("secret santa", "drop a pin on the map", "密码学").
	unlessWith [][]string
}

func term(text string, textOnly bool, unlessWith ...string) secretTerm {
	return secretTerm{words: units(text), textOnly: textOnly, unlessWith: phrases(unlessWith...)}
}

func phrases(texts ...string) [][]string {
	out := make([][]string, len(texts))
	for i, t := range texts {
		out[i] = units(t)
	}
	return out
}

const (
	anyKind  = false
	textOnly = true
)

// secretTerms name secrets. Words that only look like them are left out on
// purpose: a bare "key" ("key words", "keyboard", "primary key", "hotkey": a
// shortcut, not a secret), "public key", "passkey" (not typed), "pass"
// ("boarding pass", "pass rate"), "code" ("country code", "promo code"),
// "账号" (a user name, not a secret), "关键词"/"关键字" (keywords: 关键 is not
// 密钥), "校验码" (a checksum digit) and "pincode" as one word (an Indian
// postal code). Traditional Chinese forms are listed with the simplified ones.
var secretTerms = []secretTerm{
	// Passwords. A password may be all digits (a 6-digit 支付密码).
	term("password", anyKind),
	term("passwd", anyKind),
	term("pwd", anyKind),
	term("passphrase", textOnly),
	term("passcode", anyKind),
	term("密码", anyKind, "密码学"), // cryptography
	term("密碼", anyKind, "密碼學"),
	term("口令", anyKind),

	// Keys, tokens and other credentials: never a bare number.
	term("token", textOnly), // a blockchain's "token symbol" or "token amount": see aboutWords
	term("secret", textOnly,
		// "Secret" as an adjective of games and food.
		"santa", "ingredient", "recipe"),
	term("api key", textOnly),
	term("apikey", textOnly),
	term("access key", textOnly),
	term("access token", textOnly), // one phrase, so "Your GitHub personal access token" opens with it
	term("private key", textOnly),
	term("encryption key", textOnly),
	term("signing key", textOnly),
	term("master key", textOnly),
	term("license key", textOnly),
	term("licence key", textOnly),
	term("product key", textOnly),
	term("credential", textOnly),
	term("seed phrase", textOnly),
	term("recovery phrase", textOnly),
	term("mnemonic phrase", textOnly),
	term("令牌", textOnly),
	term("權杖", textOnly),
	term("密钥", textOnly),
	term("秘钥", textOnly),
	term("私钥", textOnly),
	term("金鑰", textOnly),
	term("密鑰", textOnly),
	term("私鑰", textOnly),
	term("助记词", textOnly),
	term("凭据", textOnly),

	// One-time codes and PINs: usually digits.
	term("pin", anyKind,
		// A pin on a map, and India's postal "PIN code".
		"map", "location", "marker", "coordinates", "postal", "postcode", "zip"),
	term("otp", anyKind),
	term("totp", anyKind),
	term("one time code", anyKind),
	term("verification code", anyKind),
	term("security code", anyKind),
	term("auth code", anyKind),
	term("authentication code", anyKind),
	term("sms code", anyKind),
	term("login code", anyKind),
	term("access code", anyKind),
	term("backup code", anyKind),
	term("recovery code", anyKind),
	term("2fa", anyKind),
	term("mfa", anyKind),
	term("验证码", anyKind, "图形", "图片"), // a captcha is a test, not a secret
	term("驗證碼", anyKind, "圖形", "圖片"),
	term("动态码", anyKind),
	term("安全码", anyKind),
	term("安全碼", anyKind),

	// Payment cards and bank accounts.
	term("card number", anyKind,
		// Cards that pay nothing: a member's or a library card.
		"member", "membership", "loyalty", "library", "student", "sim", "rewards"),
	term("card no", anyKind, "member", "membership", "loyalty", "library", "student", "sim", "rewards"),
	term("credit card", anyKind),
	term("debit card", anyKind),
	term("cvv", anyKind),
	term("cvc", anyKind),
	term("iban", textOnly),
	term("account number", anyKind),
	term("bank account", anyKind),
	term("routing number", anyKind),
	term("卡号", anyKind, "会员", "积分", "学生", "借书", "图书"),
	term("卡號", anyKind, "會員", "積分", "學生", "借書", "圖書"),
	term("银行卡", anyKind),
	term("銀行卡", anyKind),
	term("信用卡", anyKind),
	term("银行账号", anyKind),
	term("银行账户", anyKind),

	// National identity numbers.
	term("ssn", anyKind),
	term("social security", anyKind),
	term("身份证号", anyKind),
	term("身分證", anyKind),
	term("身份證", anyKind),
}

// countWords, just before a secret word, make it a quantity: "max tokens",
// "number of tokens", "最大令牌数".
var countWords = phrases("max", "maximum", "min", "minimum", "num", "number of", "count of", "how many", "total",
	"最大", "最多", "最小", "最少", "多少")

// ofWords, shortly before a secret word, name a property of it: "name of the
// API key", "length of your password".
var ofWords = phrases("name of", "label of", "length of", "type of", "hint for", "id of", "expiry of")

// aboutWords, right after a secret word, make the field about the secret
// rather than the secret itself: "token count", "password hint", "API key
// name", "credit card holder", "tokens per minute", "PIN attempts", "密码长度",
// and a blockchain's "token symbol", "token amount", "token contract address".
var aboutWords = phrases("name", "label", "id", "hint", "length", "count", "limit", "budget", "usage", "policy",
	"rules", "requirements", "type", "expiry", "expiration", "holder", "strength", "per", "attempts", "url", "link",
	"symbol", "amount", "balance", "price", "supply", "contract", "address", "ticker",
	"提示", "长度", "强度", "规则", "策略", "类型", "名称", "姓名", "持卡人", "数量", "数", "上限", "限制", "个数",
	"有效期", "用量", "链接")

// negationWords before a secret word in the same sentence say not to give it:
// "never enter your PIN here", "do not share your password", "请勿填写验证码".
// Words ending in "n't" count too.
var negationWords = phrases("not", "never", "no", "nor", "without", "avoid", "cannot", "dont",
	"不要", "勿", "不得", "禁止", "无需", "無需", "无须", "不需要", "不用", "不必", "不可", "不能", "不会", "不會", "绝不", "從不", "从不")

// askWords before a secret word in a description ask for it: "Enter your API
// key", "Paste the bot token from @BotFather", "请输入支付密码".
var askWords = phrases("enter", "type", "provide", "paste", "input", "give", "supply", "fill", "put", "share",
	"send", "submit", "insert", "specify",
	"输入", "輸入", "填写", "填寫", "填入", "提供", "粘贴", "貼上", "告诉", "發送", "发送", "提交")
