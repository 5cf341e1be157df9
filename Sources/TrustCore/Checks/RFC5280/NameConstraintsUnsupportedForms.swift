import TrustX509

extension NameConstraintsCheck {
    /// Apple processes constraints on five name forms only: rfc822Name, dNSName, directoryName,
    /// URI and iPAddress. RFC 5280 4.2.1.10 lets an application that cannot process a critical
    /// constraint's form reject the certificate, and trustd does, for every CA below the anchor
    /// whose critical nameConstraints holds another form (otherName, x400Address, ediPartyName,
    /// registeredID) in either subtree list, whatever the names below (SecPolicyServer.c;
    /// NameConstraintsTests' UnsupportedGeneralName cases). The trusted anchor's constraints are
    /// not judged this way, and neither are the leaf's. Only for a check configured with
    /// `rejectsFormsAppleCannotProcess` (Apple's policies): RFC 5280 processes those forms.
    func appleUnsupportedForms(_ c: CheckContext, _ constrained: [Int], into steps: inout [Step]) {
        guard rejectsFormsAppleCannotProcess else { return }
        for k in constrained where k > 0 && !c.isAnchor(k) {
            let cert = c.certificates[k]
            guard cert.extension(.nameConstraints)?.critical == true, let nc = cert.nameConstraints else { continue }
            let subtrees = (nc.permitted ?? []) + (nc.excluded ?? [])
            if let form = subtrees.lazy.map(\.base).first(where: { !appleProcesses($0) }) {
                let finding = NameConstraintsFinding.nameConstraintFormUnsupported(form: form.typeName)
                steps.append(Step(.nameConstraints, k, .failed, finding))
            }
        }
    }

    private func appleProcesses(_ name: GeneralName) -> Bool {
        switch name {
        case .rfc822Name, .dnsName, .directoryName, .uri, .ipAddress: true
        case .otherName, .x400Address, .ediPartyName, .registeredID: false
        }
    }
}
