package secret

import (
	"errors"
	"fmt"
	"strings"
)

// PreviousMasterKeysEnv is the environment variable that may hold the
// previous master keys: their base64 texts, comma-separated.
const PreviousMasterKeysEnv = "SVC_WEBHOOK_PREVIOUS_MASTER_KEYS"

// maxPreviousFileLen bounds the read of the previous keys file: room for
// MaxPreviousKeys keys and generous comments.
const maxPreviousFileLen = 16 << 10

// LoadKeyring returns the Sealer of the current master key (currentEnv:
// the value of SVC_WEBHOOK_MASTER_KEY, currentFile: the
// --webhook-master-key-file path, read as LoadMasterKey reads them) and the
// previous master keys, which only open values sealed before a rotation:
// previousEnv is the value of SVC_WEBHOOK_PREVIOUS_MASTER_KEYS
// (comma-separated base64 keys), previousFile the
// --webhook-previous-master-keys-file path (0600 exactly, one base64 key a
// line; blank lines and lines starting with # are skipped). "" is "not
// given" for each.
//
// Refused: both forms of either, previous keys without a current key,
// more than MaxPreviousKeys, a previous key equal to the current one or
// given twice. Nothing given at all: ErrNoMasterKey. No error quotes key
// text; errors name a key by its position (and the current one by id).
func LoadKeyring(currentEnv, currentFile, previousEnv, previousFile string) (*Sealer, error) {
	previous, err := loadPreviousKeys(previousEnv, previousFile)
	defer clearAll(previous)
	if err != nil {
		return nil, err
	}
	current, err := loadCurrentKey(currentEnv, currentFile)
	if errors.Is(err, ErrNoMasterKey) && len(previous) > 0 {
		return nil, errors.New("secret: previous webhook master keys given without a current one; give the current key too (SVC_WEBHOOK_MASTER_KEY or --webhook-master-key-file)")
	}
	if err != nil {
		return nil, err
	}
	defer clear(current)
	return NewKeyring(current, previous...)
}

// loadPreviousKeys reads the previous keys from env or file (not both);
// none given is no keys. The caller clears them.
func loadPreviousKeys(env, file string) ([][]byte, error) {
	switch {
	case env != "" && file != "":
		return nil, fmt.Errorf("secret: previous webhook master keys given both in %s and in file %s; give only one", PreviousMasterKeysEnv, file)
	case env != "":
		keys, err := parseKeyList(strings.Split(env, ","), "key", false)
		if err != nil {
			return nil, fmt.Errorf("secret: %s: %w", PreviousMasterKeysEnv, err)
		}
		return keys, nil
	case file != "":
		text, err := readKeyFile(previousKeysFile, file, maxPreviousFileLen)
		if err != nil {
			return nil, err
		}
		keys, err := parseKeyList(strings.Split(text, "\n"), "line", true)
		if err != nil {
			return nil, fmt.Errorf("secret: %s %s: %w", previousKeysFile, file, err)
		}
		return keys, nil
	default:
		return nil, nil
	}
}

// parseKeyList decodes one base64 key per item, white space around it
// allowed. With lines (a file), blank items and items starting with # are
// skipped; without (the env's comma-separated list), an empty item is an
// error, since it is most likely a key lost to a stray comma. Errors name
// the item by its position (unit and number), never by its text.
func parseKeyList(items []string, unit string, lines bool) ([][]byte, error) {
	var keys [][]byte
	for i, item := range items {
		item = strings.TrimSpace(item)
		if lines && (item == "" || strings.HasPrefix(item, "#")) {
			continue
		}
		if item == "" {
			clearAll(keys)
			return nil, fmt.Errorf("%s %d is empty", unit, i+1)
		}
		if len(keys) == MaxPreviousKeys {
			clearAll(keys)
			return nil, fmt.Errorf("more than %d previous keys (%s %d is one too many)", MaxPreviousKeys, unit, i+1)
		}
		key, err := decodeKey(item)
		if err != nil {
			clearAll(keys)
			return nil, fmt.Errorf("%s %d: %w", unit, i+1, err)
		}
		keys = append(keys, key)
	}
	return keys, nil
}

func clearAll(keys [][]byte) {
	for _, k := range keys {
		clear(k)
	}
}
