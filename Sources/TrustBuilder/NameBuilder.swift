import TrustX509

/// An X.501 name to write into a certificate, most significant RDN first (`C`, `O`, then `CN`,
/// as the openssl CLI shows it).
public struct NameBuilder: Hashable, Sendable, ExpressibleByArrayLiteral {
    /// How an attribute value is encoded.
    public enum StringEncoding: Hashable, Sendable {
        /// UTF8String, what RFC 5280 4.1.2.4 asks of new certificates.
        case utf8
        /// PrintableString (countryName and serialNumber must use it).
        case printable
        /// IA5String (domainComponent and emailAddress).
        case ia5
    }

    /// One attribute: a type and a value.
    public struct Attribute: Hashable, Sendable {
        /// The attribute type.
        public var type: OID
        /// The value.
        public var value: String
        /// How the value is encoded.
        public var encoding: StringEncoding

        /// Creates an attribute of any type.
        public init(type: OID, value: String, encoding: StringEncoding = .utf8) {
            self.type = type
            self.value = value
            self.encoding = encoding
        }

        /// `CN=`
        public static func commonName(_ value: String) -> Attribute { Attribute(type: .commonName, value: value) }
        /// `O=`
        public static func organization(_ value: String) -> Attribute {
            Attribute(type: .organizationName, value: value)
        }
        /// `OU=`
        public static func organizationalUnit(_ value: String) -> Attribute {
            Attribute(type: .organizationalUnitName, value: value)
        }
        /// `C=` (PrintableString, two letters).
        public static func country(_ value: String) -> Attribute {
            Attribute(type: .countryName, value: value, encoding: .printable)
        }
        /// `L=`
        public static func locality(_ value: String) -> Attribute { Attribute(type: .localityName, value: value) }
        /// `ST=`
        public static func state(_ value: String) -> Attribute { Attribute(type: .stateOrProvinceName, value: value) }
        /// `DC=` (IA5String).
        public static func domainComponent(_ value: String) -> Attribute {
            Attribute(type: .domainComponent, value: value, encoding: .ia5)
        }
        /// `emailAddress=` (IA5String; deprecated in favour of SAN rfc822Name, still seen).
        public static func emailAddress(_ value: String) -> Attribute {
            Attribute(type: .emailAddress, value: value, encoding: .ia5)
        }
        /// `serialNumber=` (PrintableString).
        public static func serialNumber(_ value: String) -> Attribute {
            Attribute(type: .serialNumberAttribute, value: value, encoding: .printable)
        }
    }

    /// The relative distinguished names, each a set of attributes (usually one).
    public var rdns: [[Attribute]]

    /// Creates a name with one attribute per RDN, in the order given.
    public init(_ attributes: [Attribute]) { rdns = attributes.map { [$0] } }

    /// Creates a name with one attribute per RDN, in the order given.
    public init(arrayLiteral elements: Attribute...) { self.init(elements) }

    /// Creates a name from explicit RDNs (multi-valued ones included).
    public init(rdns: [[Attribute]]) { self.rdns = rdns }

    /// A name holding only `CN=commonName`.
    public init(commonName: String) { self.init([.commonName(commonName)]) }

    /// Creates a name from `(type, value)` pairs, the type a short name (`CN`, `O`, `OU`, `C`,
    /// `L`, `ST`, `DC`, `emailAddress`, `serialNumber`) or a dotted OID; nil for an unknown type.
    public init?(pairs: [(String, String)]) {
        var attributes: [Attribute] = []
        for (type, value) in pairs {
            switch type {
            case "CN": attributes.append(.commonName(value))
            case "O": attributes.append(.organization(value))
            case "OU": attributes.append(.organizationalUnit(value))
            case "C": attributes.append(.country(value))
            case "L": attributes.append(.locality(value))
            case "ST": attributes.append(.state(value))
            case "DC": attributes.append(.domainComponent(value))
            case "emailAddress": attributes.append(.emailAddress(value))
            case "serialNumber": attributes.append(.serialNumber(value))
            default:
                guard let oid = OID(dotted: type) else { return nil }
                attributes.append(Attribute(type: oid, value: value))
            }
        }
        self.init(attributes)
    }

    /// The empty name (for empty-subject tests).
    public static let empty = NameBuilder(rdns: [])

    /// The DER Name (a SEQUENCE of SETs).
    public var der: [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                for rdn in rdns {
                    let members = rdn.map { attribute in
                        DERWriter.encode { w in
                            w.sequence { w in
                                w.oid(attribute.type)
                                switch attribute.encoding {
                                case .utf8: w.utf8String(attribute.value)
                                case .printable: w.printableString(attribute.value)
                                case .ia5: w.ia5String(attribute.value)
                                }
                            }
                        }
                    }
                    w.setOf(members)
                }
            }
        }
    }
}
