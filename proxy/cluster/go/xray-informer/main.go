// A client-go informer on ConfigMaps of one namespace, for the X-ray tests (issue 45): what a
// controller does at startup (a streaming list when the WatchListClient feature is on:
// KUBE_FEATURE_WatchListClient=true) and after its watch is cut and its resourceVersion compacted
// away (410, then a relist). It prints one line per event it handles, and SYNCED once its cache
// has synced, so that a test can follow it; it stops on SIGINT or SIGTERM.
//
// Usage: xray-informer CONTEXT NAMESPACE   (the kubeconfig comes from KUBECONFIG)
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: xray-informer CONTEXT NAMESPACE")
		os.Exit(2)
	}
	loading := clientcmd.NewDefaultClientConfigLoadingRules()
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(loading, &clientcmd.ConfigOverrides{CurrentContext: os.Args[1]}).ClientConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cfg.UserAgent = "xray-informer"
	// JSON rather than client-go's Protobuf for built-in types: the tests read the recorded watch
	// frames as JSON events (the explorer's page decodes either).
	cfg.ContentType = "application/json"
	cfg.AcceptContentTypes = "application/json"
	cs := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(os.Args[2]))
	inf := factory.Core().V1().ConfigMaps().Informer()
	name := func(o any) string {
		if cm, ok := o.(*corev1.ConfigMap); ok {
			return cm.Name
		}
		return "?"
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { fmt.Println("ADDED", name(o)) },
		UpdateFunc: func(_, o any) { fmt.Println("MODIFIED", name(o)) },
		DeleteFunc: func(o any) { fmt.Println("DELETED", name(o)) },
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	factory.Start(ctx.Done())
	if cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		fmt.Println("SYNCED")
	}
	<-ctx.Done()
	factory.Shutdown()
}
