//go:build tools

// Pins helm's command in this module, so `go build helm.sh/helm/v3/cmd/helm` resolves here.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
