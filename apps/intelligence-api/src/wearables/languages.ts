/** Every ISO 639-1 two-letter language code (the 183 current codes of the ISO 639-1 registration authority). */
export const ISO_639_1 = new Set(
  (
    "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy " +
    "da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht " +
    "hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky " +
    "la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny " +
    "oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss " +
    "st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo " +
    "za zh zu"
  ).split(" "),
);

export function isIso6391(code: string): boolean {
  return ISO_639_1.has(code);
}

/** Strings of the hosted connect page. Languages without an entry fall back to English. */
export interface ConnectStrings {
  title: string;
  intro: string;
  privacy: string;
  connectWith: string;
  connectedTitle: string;
  connectedBody: string;
  alreadyConnected: string;
  disconnected: string;
  notFoundTitle: string;
  notFoundBody: string;
  unavailable: string;
  expired: string;
}

export const CONNECT_STRINGS: Record<string, ConnectStrings> = {
  en: {
    title: "Connect your wearable",
    intro: "Your care team invited you to share daily summaries from a wearable device. Choose your device:",
    privacy:
      "Only daily summaries are shared (sleep hours, steps, resting heart rate, heart-rate variability). You can disconnect at any time by asking your care team.",
    connectWith: "Connect {provider}",
    connectedTitle: "Connected",
    connectedBody: "{provider} is connected. You can close this page.",
    alreadyConnected: "This link has already been used: {provider} is connected. You can close this page.",
    disconnected: "This connection has been disconnected. Ask your care team for a new link.",
    notFoundTitle: "Link not found",
    notFoundBody: "This connect link is not valid. Check the address or ask your care team for a new link.",
    unavailable: "Connecting this device is not available yet. Please try again later.",
    expired: "This page has expired. Reload it and try again.",
  },
  es: {
    title: "Conecte su dispositivo",
    intro:
      "Su equipo de atención le invitó a compartir resúmenes diarios de un dispositivo portátil. Elija su dispositivo:",
    privacy:
      "Solo se comparten resúmenes diarios (horas de sueño, pasos, frecuencia cardíaca en reposo, variabilidad de la frecuencia cardíaca). Puede desconectarlo en cualquier momento pidiéndolo a su equipo de atención.",
    connectWith: "Conectar {provider}",
    connectedTitle: "Conectado",
    connectedBody: "{provider} está conectado. Puede cerrar esta página.",
    alreadyConnected: "Este enlace ya se usó: {provider} está conectado. Puede cerrar esta página.",
    disconnected: "Esta conexión se desconectó. Pida un enlace nuevo a su equipo de atención.",
    notFoundTitle: "Enlace no encontrado",
    notFoundBody:
      "Este enlace no es válido. Revise la dirección o pida un enlace nuevo a su equipo de atención.",
    unavailable: "Todavía no es posible conectar este dispositivo. Inténtelo más tarde.",
    expired: "Esta página caducó. Vuelva a cargarla e inténtelo de nuevo.",
  },
  fr: {
    title: "Connectez votre objet connecté",
    intro:
      "Votre équipe soignante vous invite à partager des résumés quotidiens d'un objet connecté. Choisissez votre appareil :",
    privacy:
      "Seuls des résumés quotidiens sont partagés (heures de sommeil, pas, fréquence cardiaque au repos, variabilité de la fréquence cardiaque). Vous pouvez vous déconnecter à tout moment en le demandant à votre équipe soignante.",
    connectWith: "Connecter {provider}",
    connectedTitle: "Connecté",
    connectedBody: "{provider} est connecté. Vous pouvez fermer cette page.",
    alreadyConnected: "Ce lien a déjà été utilisé : {provider} est connecté. Vous pouvez fermer cette page.",
    disconnected: "Cette connexion a été interrompue. Demandez un nouveau lien à votre équipe soignante.",
    notFoundTitle: "Lien introuvable",
    notFoundBody:
      "Ce lien de connexion n'est pas valide. Vérifiez l'adresse ou demandez un nouveau lien à votre équipe soignante.",
    unavailable: "La connexion de cet appareil n'est pas encore disponible. Réessayez plus tard.",
    expired: "Cette page a expiré. Rechargez-la et réessayez.",
  },
  de: {
    title: "Wearable verbinden",
    intro:
      "Ihr Behandlungsteam lädt Sie ein, tägliche Zusammenfassungen eines Wearables zu teilen. Wählen Sie Ihr Gerät:",
    privacy:
      "Es werden nur tägliche Zusammenfassungen geteilt (Schlafstunden, Schritte, Ruhepuls, Herzfrequenzvariabilität). Sie können die Verbindung jederzeit über Ihr Behandlungsteam trennen.",
    connectWith: "{provider} verbinden",
    connectedTitle: "Verbunden",
    connectedBody: "{provider} ist verbunden. Sie können diese Seite schließen.",
    alreadyConnected:
      "Dieser Link wurde bereits verwendet: {provider} ist verbunden. Sie können diese Seite schließen.",
    disconnected: "Diese Verbindung wurde getrennt. Bitten Sie Ihr Behandlungsteam um einen neuen Link.",
    notFoundTitle: "Link nicht gefunden",
    notFoundBody:
      "Dieser Verbindungslink ist ungültig. Prüfen Sie die Adresse oder bitten Sie Ihr Behandlungsteam um einen neuen Link.",
    unavailable: "Dieses Gerät kann noch nicht verbunden werden. Bitte versuchen Sie es später erneut.",
    expired: "Diese Seite ist abgelaufen. Laden Sie sie neu und versuchen Sie es erneut.",
  },
  pt: {
    title: "Ligue o seu dispositivo",
    intro:
      "A sua equipa de saúde convidou-o a partilhar resumos diários de um dispositivo vestível. Escolha o seu dispositivo:",
    privacy:
      "Só são partilhados resumos diários (horas de sono, passos, frequência cardíaca em repouso, variabilidade da frequência cardíaca). Pode desligar a qualquer momento pedindo à sua equipa de saúde.",
    connectWith: "Ligar {provider}",
    connectedTitle: "Ligado",
    connectedBody: "{provider} está ligado. Pode fechar esta página.",
    alreadyConnected: "Esta ligação já foi usada: {provider} está ligado. Pode fechar esta página.",
    disconnected: "Esta ligação foi desligada. Peça uma nova ligação à sua equipa de saúde.",
    notFoundTitle: "Ligação não encontrada",
    notFoundBody:
      "Esta ligação não é válida. Verifique o endereço ou peça uma nova ligação à sua equipa de saúde.",
    unavailable: "Ainda não é possível ligar este dispositivo. Tente mais tarde.",
    expired: "Esta página expirou. Recarregue-a e tente novamente.",
  },
};

export function connectStrings(language: string): { lang: string; strings: ConnectStrings } {
  const strings = CONNECT_STRINGS[language];
  if (strings) return { lang: language, strings };
  return { lang: "en", strings: CONNECT_STRINGS.en as ConnectStrings };
}
