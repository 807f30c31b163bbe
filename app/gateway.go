package app

import (
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/gateway"
)

// ServeGateway serves the person's servers to other apps (issue 25) on the
// gateway socket of this data folder (applink.GatewaySocketPath), where
// `gatehouse gateway` reaches it, until StopGateway or Close. Every tool
// call through it is under the person's consent in the window.
func (c *Core) ServeGateway() error {
	path, err := applink.GatewaySocketPath(c.Store.Dir())
	if err != nil {
		return err
	}
	gw := gateway.New(gateway.Options{Store: c.Store, Manager: c.Manager, Broker: c.Broker,
		Settings: storeToolSettings{c}, Version: Version, CallTimeout: c.toolCallTimeout,
		// An app's own "Always allow": Settings → Connected apps reads the
		// app and its permissions again.
		AppSaved: func(appID, serverID string) {
			_, _ = c.emitPolicies(serverID)
			c.clientAppChanged(appID)
		},
		OnAppsChanged: c.clientAppChanged})
	if err := gw.ServeUnix(path); err != nil {
		gw.Close()
		return err
	}
	c.gatewayMu.Lock()
	old := c.gateway
	c.gateway = gw
	c.gatewayMu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return nil
}

// StopGateway stops serving other apps: their sessions end, their calls
// are cancelled, and the socket is removed.
func (c *Core) StopGateway() {
	c.gatewayMu.Lock()
	gw := c.gateway
	c.gateway = nil
	c.gatewayMu.Unlock()
	if gw != nil {
		_ = gw.Close()
	}
}

// gatewayChanged tells the gateway, if it runs, that a server or its
// lists changed.
func (c *Core) gatewayChanged(serverID string) {
	if gw := c.runningGateway(); gw != nil {
		gw.Changed(serverID)
	}
}

// gatewayAppChanged tells the gateway, if it runs, that the person changed
// what an app may do, and the window that its record changed.
func (c *Core) gatewayAppChanged(id string) {
	c.clientAppChanged(id)
	if gw := c.runningGateway(); gw != nil {
		gw.AppChanged(id)
	}
}

// gatewayResourceUpdated tells the gateway, if it runs, that a server's
// resource changed: the clients subscribed to it hear of it.
func (c *Core) gatewayResourceUpdated(serverID, uri string) {
	if gw := c.runningGateway(); gw != nil {
		gw.ResourceUpdated(serverID, uri)
	}
}

// runningGateway is the gateway ServeGateway started, or nil.
func (c *Core) runningGateway() *gateway.Gateway {
	c.gatewayMu.Lock()
	defer c.gatewayMu.Unlock()
	return c.gateway
}
