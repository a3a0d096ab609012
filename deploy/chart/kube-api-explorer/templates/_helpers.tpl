{{- define "kae.name" -}}{{ .Release.Name }}-kube-api-explorer{{- end -}}
{{- define "kae.labels" -}}
app.kubernetes.io/name: kube-api-explorer
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}
{{- define "kae.selector" -}}
app.kubernetes.io/name: kube-api-explorer
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
{{- define "kae.cookieSecret" -}}{{ default (printf "%s-cookie-keys" (include "kae.name" .)) .Values.cookieKeys.existingSecret }}{{- end -}}
