package forms

import "regexp"

// secretWords flag a field as asking for a secret (E17).
//
// Temporary: this reproduces the check Gatehouse had before the forms
// package; another change replaces this file with a fuller one of the same
// signature.
var secretWords = regexp.MustCompile(`(?i)pass(word|phrase|code|wd)|\bpass\b|secret|token|api[\s_-]?key|private[\s_-]?key|credential|card[\s_-]?(number|no)|credit[\s_-]?card|cvv|cvc|iban|account[\s_-]?(number|no)|routing[\s_-]?number|\bpin\b|one[\s_-]?time|\botp\b|2fa|mfa[\s_-]?code|verification[\s_-]?code|ssn|social[\s_-]?security|密码|口令|令牌|密钥|验证码|卡号|账号`)

// looksSecret reports whether a field seems to ask for a password, key,
// token, card number or the like, by its name, title or description (E17).
func looksSecret(name, title, description, format string, enumOptions bool, kind string) bool {
	return secretWords.MatchString(name + " " + title + " " + description)
}
