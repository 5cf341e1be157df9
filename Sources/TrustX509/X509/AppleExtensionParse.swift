extension Extension {
    /// Whether Apple's certificate parser would fail on this extension's value: the outer
    /// element is not one whole value of the type's ASN.1 tag, a SEQUENCE OF that must hold
    /// something is empty, or its elements have the wrong tag (SecCertificate.c's extension
    /// parsers). trustx's own decoder is stricter (DER minimal forms, field rules); what it
    /// refuses beyond this is tolerated under the `apple` profile (D34), while a value Apple
    /// cannot read fails as UnparseableExtension (errSecUnknownCertExtension, -67618).
    public var isAppleUnparseable: Bool {
        guard decodeError != nil, Extension.decodable.contains(oid) else { return false }
        var r = DERReader(value)
        guard let node = try? r.readNode(), r.isAtEnd else { return true }
        switch oid {
        case .keyUsage:
            let c = r.content(node)
            return node.tag != DERTag.bitString || c.isEmpty || c.first! >= 8
        case .subjectKeyIdentifier:
            return node.tag != DERTag.octetString
        case .inhibitAnyPolicy:
            return node.tag != DERTag.integer || node.contentLength == 0
        case .sctList, .ctPoison:
            // Apple has no parser for these; whatever they hold, it reads on.
            return false
        default:
            guard node.tag == DERTag.sequence else { return true }
            let elementTag: UInt8?
            switch oid {
            case .extKeyUsage: elementTag = DERTag.oid
            case .certificatePolicies, .policyMappings, .authorityInfoAccess, .crlDistributionPoints:
                elementTag = DERTag.sequence
            default: elementTag = nil
            }
            guard let elementTag else { return false }
            var s = r.reader(inside: node)
            if s.isAtEnd { return true }
            while !s.isAtEnd {
                guard let element = try? s.readNode(), element.tag == elementTag else { return true }
            }
            return false
        }
    }
}
