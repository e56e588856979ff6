package httpd

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fxd-labs/fxd/domain"
)

// deskCollector reports the FX, payments and webhook desks, each read
// once per scrape (a desk the Admin was not given is left out).
type deskCollector struct {
	a                                              *Admin
	fxLive, fxQuotes, fxJobs                       family
	payTransfers, payLinks, payJobs                family
	whEndpoints, whTracked, whInFlight, whSpilled  family
	whFanOut, whOK, whFailed                       family
	whByState, whBacklog, whFailing, whConsecutive family
	whPrevKey                                      family
}

func newDeskCollector(a *Admin) *deskCollector {
	return &deskCollector{
		a:            a,
		fxLive:       gaugeFamily("fxd_fx_live_orders", "FX orders not yet in an end state, driven by the chain side."),
		fxQuotes:     gaugeFamily("fxd_fx_book_quotes", "Quotes (and expired-quote tombstones) in the quote book."),
		fxJobs:       gaugeFamily("fxd_fx_chain_jobs", "Chain jobs in flight (relays, settles, refunds, escrow reads)."),
		payTransfers: gaugeFamily("fxd_pay_live_transfers", "Transfers not yet in an end state, driven by the chain side."),
		payLinks:     gaugeFamily("fxd_pay_live_links", "Payment links open or holding money not yet forwarded."),
		payJobs:      gaugeFamily("fxd_pay_chain_jobs", "Payments chain jobs in flight (relays, receipt checks, scans, forwards)."),
		whEndpoints:  gaugeFamily("fxd_webhook_endpoints", "Webhook endpoints not deleted."),
		whTracked:    gaugeFamily("fxd_webhook_deliveries_tracked", "Pending webhook deliveries held in memory (per endpoint at most the backlog)."),
		whInFlight:   gaugeFamily("fxd_webhook_attempts_in_flight", "Webhook delivery attempts in flight."),
		whSpilled:    gaugeFamily("fxd_webhook_spilled_endpoints", "Endpoints whose pending deliveries outgrew memory and wait in the store."),
		whFanOut:     gaugeFamily("fxd_webhook_fanout_waiting", "Events waiting for their fan-out."),
		whOK:         counterFamily("fxd_webhook_attempts_ok_total", "Delivery attempts answered 2xx since start."),
		whFailed:     counterFamily("fxd_webhook_attempts_failed_total", "Delivery attempts failed since start (non-2xx, redirect, transport error)."),
		whByState:    gaugeFamily("fxd_webhook_endpoints_by_state", "Webhook endpoints not deleted, by state.", "state"),
		whBacklog: gaugeFamily("fxd_webhook_backlog",
			"Pending webhook deliveries held in memory, by endpoint state (deleted: abandoned, not yet dropped); a spilled endpoint has more waiting in the store.", "state"),
		whFailing: gaugeFamily("fxd_webhook_failing_endpoints",
			"Webhook endpoints whose latest delivery attempts failed (consecutive failures above zero), by state.", "state"),
		whConsecutive: gaugeFamily("fxd_webhook_consecutive_failures",
			"Consecutive failed delivery attempts summed over the endpoints, by state (ten disable an endpoint).", "state"),
		whPrevKey: gaugeFamily("fxd_webhook_endpoints_under_previous_master_key",
			"Webhook endpoints holding a secret not sealed under the current master key; POST /admin/webhooks/reseal brings it to 0."),
	}
}

func (c *deskCollector) Describe(ch chan<- *prometheus.Desc) {
	describeAll(ch, []family{c.fxLive, c.fxQuotes, c.fxJobs, c.payTransfers, c.payLinks, c.payJobs,
		c.whEndpoints, c.whTracked, c.whInFlight, c.whSpilled, c.whFanOut, c.whOK, c.whFailed,
		c.whByState, c.whBacklog, c.whFailing, c.whConsecutive, c.whPrevKey})
}

func (c *deskCollector) Collect(ch chan<- prometheus.Metric) {
	if d := c.a.desk; d != nil {
		st := d.Stats()
		c.fxLive.emit(ch, float64(st.LiveOrders))
		c.fxQuotes.emit(ch, float64(st.BookQuotes))
		c.fxJobs.emit(ch, float64(st.RunningJobs))
	}
	if p := c.a.pay; p != nil {
		st := p.Stats()
		c.payTransfers.emit(ch, float64(st.LiveTransfers))
		c.payLinks.emit(ch, float64(st.LiveLinks))
		c.payJobs.emit(ch, float64(st.RunningJobs))
	}
	if c.a.hooks != nil {
		c.collectWebhooks(ch)
	}
}

func (c *deskCollector) collectWebhooks(ch chan<- prometheus.Metric) {
	st := c.a.hooks.Stats()
	c.whEndpoints.emit(ch, float64(st.Endpoints))
	c.whTracked.emit(ch, float64(st.Tracked))
	c.whInFlight.emit(ch, float64(st.InFlight))
	c.whSpilled.emit(ch, float64(st.Spilled))
	c.whFanOut.emit(ch, float64(st.FanOutWaiting))
	c.whOK.emit(ch, float64(st.AttemptsOK))
	c.whFailed.emit(ch, float64(st.AttemptsFailed))
	c.whPrevKey.emit(ch, float64(c.a.hooks.SecretsUnderPreviousKeys()))
	for state, s := range c.a.hooks.StatsByState() {
		if state != domain.EndpointDeleted {
			c.whByState.emit(ch, float64(s.Endpoints), state)
		}
		c.whBacklog.emit(ch, float64(s.Backlog), state)
		c.whFailing.emit(ch, float64(s.Failing), state)
		c.whConsecutive.emit(ch, float64(s.Failures), state)
	}
}
