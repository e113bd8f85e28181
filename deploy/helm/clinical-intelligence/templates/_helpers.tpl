{{/* Chart name, truncated to the 63 characters Kubernetes allows in names. */}}
{{- define "clinical-intelligence.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name; the release name alone when it already contains the chart name. */}}
{{- define "clinical-intelligence.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "clinical-intelligence.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "clinical-intelligence.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component; call with (dict "root" $ "component" "intelligence-api"). */}}
{{- define "clinical-intelligence.selectorLabels" -}}
app.kubernetes.io/name: {{ include "clinical-intelligence.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "clinical-intelligence.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "clinical-intelligence.secretName" -}}
{{- default (printf "%s-env" (include "clinical-intelligence.fullname" .)) .Values.secret.existingSecret -}}
{{- end -}}

{{/* The environment of every process: secrets by reference, the rest from values. */}}
{{- define "clinical-intelligence.env" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "clinical-intelligence.secretName" . }}
      key: DATABASE_URL
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "clinical-intelligence.secretName" . }}
      key: REDIS_URL
- name: MODEL_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "clinical-intelligence.secretName" . }}
      key: MODEL_API_KEY
      optional: true
- name: PORT
  value: {{ .Values.config.port | quote }}
- name: LOG_LEVEL
  value: {{ .Values.config.logLevel | quote }}
- name: PUBLIC_BASE_URL
  value: {{ .Values.config.publicBaseUrl | quote }}
- name: MODEL_BASE_URL
  value: {{ .Values.config.modelBaseUrl | quote }}
- name: MODEL_NAME
  value: {{ .Values.config.modelName | quote }}
- name: NODE_ENV
  value: "production"
{{- end -}}

{{/* Pod-level settings shared by every workload. */}}
{{- define "clinical-intelligence.podSpecCommon" -}}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
