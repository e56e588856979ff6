// Command fxd is the service and its operator tools in one binary:
//
//	fxd serve                      run the service
//	fxd admin accounts|keys ...    manage accounts and API keys (admin listener)
//	fxd call METHOD PATH [JSON]    make one signed API request
//	fxd wal verify|dump            check or print the write-ahead log
//	fxd snapshot create|list       back up the snapshot store
//	fxd chain deploy               deploy the contract set to a node
//
// Admin commands print one JSON object on stdout, and on failure exit
// non-zero with a message on stderr.
package main

import (
	"fmt"
	"os"
)

const usage = `usage: fxd <command> [flags]

commands:
  serve                               run the service
  admin accounts create|update ...    manage accounts
  admin keys create|revoke ...        manage API keys
  call METHOD PATH [JSON]             make one signed request
  wal verify|dump --data-dir D        check or print the log
  snapshot create|list --data-dir D   back up the snapshot store
  chain deploy --rpc-url U --deployer-key-file F --out contracts.json
  webhook-key create --out FILE       make a webhook master key file (0600)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	args := os.Args[2:]
	switch os.Args[1] {
	case "serve":
		err = runServe(args)
	case "admin":
		err = runAdmin(args)
	case "call":
		err = runCall(args)
	case "wal":
		err = runWAL(args)
	case "snapshot":
		err = runSnapshot(args)
	case "chain":
		err = runChain(args)
	case "webhook-key":
		err = runWebhookKey(args)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		err = fmt.Errorf("unknown command %q\n%s", os.Args[1], usage)
	}
	if err != nil {
		if ee, ok := err.(exitError); ok {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "fxd:", err)
		os.Exit(1)
	}
}

// exitError ends the process with a code and no further message (the
// command already said what it had to).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }
