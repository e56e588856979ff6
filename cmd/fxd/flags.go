package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// envName is the environment variable that stands in for a flag not given
// on the command line: SVC_<FLAG>, upper case, '-' as '_' (CONTRACT.md
// asks it of serve's flags; every command follows the same rule).
func envName(flag string) string {
	return "SVC_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// fromEnv reports whether a flag takes an environment variable: every flag
// but cobra's own --help and --version.
func fromEnv(f *pflag.Flag) bool {
	_, cobras := f.Annotations[cobra.FlagSetByCobraAnnotation]
	return !cobras && f.Name != "help" && f.Name != "version"
}

// fillFromEnv sets every flag of cmd (its own and those it inherits) that
// the command line did not give from its SVC_* variable. A flag set this
// way counts as given (Changed), exactly as if it had been typed. A value
// the flag refuses is a usage error naming the variable.
func fillFromEnv(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || !fromEnv(f) {
			return
		}
		name := envName(f.Name)
		v, ok := os.LookupEnv(name)
		if !ok {
			return
		}
		if e := cmd.Flags().Set(f.Name, v); e != nil {
			err = usageErrorf("%s=%q (for --%s): %v", name, v, f.Name, e)
		}
	})
	return err
}

// annotateEnv appends "(env SVC_<FLAG>)" to the usage of every flag
// defined on cmd and its descendants, so --help names the variable next to
// the flag. It runs once, on the finished tree.
func annotateEnv(cmd *cobra.Command) {
	add := func(f *pflag.Flag) {
		env := "(env " + envName(f.Name) + ")"
		if fromEnv(f) && !strings.Contains(f.Usage, env) {
			f.Usage = strings.TrimSpace(f.Usage + " " + env)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.PersistentFlags().VisitAll(add)
	for _, sub := range cmd.Commands() {
		annotateEnv(sub)
	}
}

// requireFlags is a usage error naming the flags (without "--") that are
// empty.
func requireFlags(cmd *cobra.Command, names ...string) error {
	var missing []string
	for _, n := range names {
		if f := cmd.Flags().Lookup(n); f == nil || f.Value.String() == "" {
			missing = append(missing, "--"+n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	verb := "is"
	if len(missing) > 1 {
		verb = "are"
	}
	return usageErrorf("%s%s %s required", where(cmd), joinAnd(missing), verb)
}

// joinAnd joins names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return fmt.Sprintf("%s and %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
